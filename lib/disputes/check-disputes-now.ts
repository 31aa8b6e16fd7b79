// "Check for new disputes now" (the back office's Disputes page): the disputes poller's own work
// (./poll-account-disputes.ts: cursor, back-off, account check state, idempotent import) run at once
// for one merchant's enabled accounts of one mode that have reporting credentials, instead of
// waiting for the next */5 run. Safe against hammering the acquirer
// (docs/decisions/0205-check-for-new-disputes-now.md): one check per merchant and mode a minute,
// claimed under a lock with its audit entry, so a double click or a second tab is refused with the
// time it may ask again; an account the poller is backing off from after failures is not called,
// and is reported as failing with its problem.
import { db } from "../db";
import { recordAuditEntry, type AuditAction } from "../audit/audit";
import type { AcquirerName } from "../acquirers/names";
import type { Mode } from "../mode";
import { log } from "../observability/logger";
import type { FeedCounts } from "../routing/accounts/run-reporting-feed";
import type { ReportingAccessFor } from "../routing/accounts/reporting-access";
import { pollAccountDisputes } from "./poll-account-disputes";

/** At most one check per merchant and mode in this time (decision 0205). */
export const DISPUTE_CHECK_INTERVAL_MS = 60_000;

export const DISPUTE_CHECK_AUDIT_ACTION = "dispute.check_requested" satisfies AuditAction;

export interface CheckedAccount {
  accountId: string;
  name: string;
  processor: AcquirerName;
}

export type DisputeCheckOfAccount =
  | (CheckedAccount & { status: "checked" } & FeedCounts)
  /** The read failed now, or the poller is backing off after failures (then nothing was called). */
  | (CheckedAccount & { status: "failing"; problem: string; failures: number; nextAttemptAt: string; called: boolean });

export type DisputeCheck =
  | { status: "checked"; accounts: DisputeCheckOfAccount[] }
  /** No enabled account of the mode has reporting credentials: nothing to ask. */
  | { status: "no-accounts" }
  /** A check of this merchant and mode started less than DISPUTE_CHECK_INTERVAL_MS ago. */
  | { status: "too-soon"; lastCheckAt: Date; retryAt: Date };

export async function checkDisputesNow({
  merchantId,
  mode,
  userId,
  accessFor,
  now = new Date(),
}: {
  merchantId: string;
  mode: Mode;
  /** The back-office user who asked (audited as the actor). */
  userId: string;
  accessFor?: ReportingAccessFor;
  now?: Date;
}): Promise<DisputeCheck> {
  // The poller's own selection (listReportingAccounts), for this merchant and mode.
  const accounts = await db().acquirerAccount.findMany({
    where: { merchantId, mode, enabled: true, reportingCredentialsSealed: { not: null } },
    select: { id: true, name: true, processor: true },
    orderBy: { createdAt: "asc" },
  });
  if (accounts.length === 0) return { status: "no-accounts" };

  // The claim: under a lock per merchant and mode (on the embedded database the transaction alone is
  // exclusive), the last check's audit entry is read and this one's written, so two presses at once
  // cannot both reach the acquirer. The entry records the request, as payment.capture_requested does.
  const since = new Date(now.getTime() - DISPUTE_CHECK_INTERVAL_MS);
  const tooSoon = await db().$transaction(async (tx) => {
    await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtextextended(${`dispute-check:${merchantId}:${mode}`}, 0))`;
    const recent = await tx.auditEntry.findMany({
      where: { merchantId, action: DISPUTE_CHECK_AUDIT_ACTION, createdAt: { gt: since } },
      select: { createdAt: true, details: true },
      orderBy: { createdAt: "desc" },
    });
    const last = recent.find((entry) => (entry.details as { mode?: unknown } | null)?.mode === mode);
    if (last) return { lastCheckAt: last.createdAt, retryAt: new Date(last.createdAt.getTime() + DISPUTE_CHECK_INTERVAL_MS) };
    await recordAuditEntry(tx, { merchantId, userId, action: DISPUTE_CHECK_AUDIT_ACTION, details: { mode, accounts: accounts.map((account) => account.id) } });
    return null;
  });
  if (tooSoon) return { status: "too-soon", ...tooSoon };

  const results: DisputeCheckOfAccount[] = [];
  for (const account of accounts) {
    const checked = { accountId: account.id, name: account.name, processor: account.processor };
    const run = await pollAccountDisputes({ accountId: account.id, accessFor, now });
    if (run.status === "imported") {
      results.push({ ...checked, status: "checked", ...(run.counts ?? { read: 0, created: 0, updated: 0 }) });
    } else if (run.status === "failed") {
      results.push({ ...checked, status: "failing", problem: run.problem, failures: run.failures, nextAttemptAt: run.nextAttemptAt, called: true });
    } else {
      // Backing off after failures: the acquirer is not called before the poller's next attempt.
      const cursor = await db().reportingCursor.findUnique({
        where: { acquirerAccountId_feed: { acquirerAccountId: account.id, feed: "disputes" } },
        select: { lastError: true, failures: true },
      });
      results.push({
        ...checked,
        status: "failing",
        problem: cursor?.lastError ?? "the last reads failed",
        failures: cursor?.failures ?? 0,
        nextAttemptAt: run.nextAttemptAt,
        called: false,
      });
    }
  }
  log("disputes").info(
    { event: "disputes.checked_now", merchantId, mode, userId, accounts: results.map(({ accountId, status }) => ({ accountId, status })) },
    `disputes checked now for merchant ${merchantId} (${mode}): ${results.map((result) => `${result.accountId} ${result.status === "checked" ? `${result.created} new, ${result.updated} updated` : "failing"}`).join("; ")}`,
  );
  return { status: "checked", accounts: results };
}
