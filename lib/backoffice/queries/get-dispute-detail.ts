// One dispute of the merchant, of the mode shown, for its page: the acquirer's facts, the payment it
// concerns, the evidence files (never their bytes: those are downloaded one by one), the answers
// given, the audit entries about it, and whether it can still be answered and, if not, why (the
// same rule the use cases refuse by, lib/disputes/dispute-rules.ts).
import { NotFoundError } from "../../auth/actor";
import { reportingOf } from "../../acquirers/reporting";
import { db } from "../../db";
import { calendarDay, todayUtc } from "../../disputes/dispute-dates";
import { assertAnswerable } from "../../disputes/dispute-rules";
import { ApiError } from "../../errors";
import type { Mode } from "../../mode";
import { DISPUTE_FIELDS } from "../../disputes/dispute-fields";

export async function getDisputeDetail({ merchantId, mode, disputeId, now = new Date() }: { merchantId: string; mode: Mode; disputeId: string; now?: Date }) {
  const row = await db().dispute.findFirst({
    where: { id: disputeId, merchantId, mode },
    select: {
      ...DISPUTE_FIELDS,
      processor: true,
      acquirerDisputeId: true,
      reference: true,
      decision: true,
      decidedAt: true,
      createdAt: true,
      updatedAt: true,
      acquirerAccount: { select: { id: true, name: true, reportingCredentialsFingerprint: true } },
      payment: { select: { id: true, merchantPaymentId: true, amount: true, currency: true } },
      operation: { select: { type: true, amount: true, currency: true } },
      evidence: {
        select: { id: true, fileName: true, contentType: true, size: true, sha256: true, sentAt: true, sendError: true, createdAt: true },
        orderBy: { createdAt: "asc" },
      },
    },
  });
  if (!row) throw new NotFoundError("Dispute");
  const audit = await db().auditEntry.findMany({
    where: { merchantId, target: disputeId },
    orderBy: [{ createdAt: "asc" }, { id: "asc" }],
    select: { id: true, action: true, actorName: true, actorEmail: true, createdAt: true, details: true },
  });
  const reporting = reportingOf(row.processor);
  let refusal: string | null = null;
  try {
    assertAnswerable(row, now);
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    refusal = error.message.replace(/^dispute: /, "");
  }
  const dueOn = row.dueOn ? calendarDay(row.dueOn) : null;
  return {
    ...row,
    kind: row.kind.replaceAll("_", "-"),
    status: row.status.replaceAll("_", "-"),
    openedOn: calendarDay(row.openedOn),
    dueOn,
    expiresOn: row.expiresOn ? calendarDay(row.expiresOn) : null,
    /** Whole days from today (UTC) to the due date; negative: past. */
    daysLeft: dueOn ? Math.round((Date.parse(`${dueOn}T00:00:00Z`) - Date.parse(`${todayUtc(now)}T00:00:00Z`)) / 86_400_000) : null,
    audit,
    /** The acquirer's reporting API (label and evidence rules); undefined: it publishes none. */
    reporting: reporting ? { label: reporting.label, evidence: reporting.evidence } : undefined,
    /** Why no answer can be given now (closed, past due); null: evidence, a comment and an answer are taken. */
    refusal,
  };
}

export type DisputeDetail = Awaited<ReturnType<typeof getDisputeDetail>>;
