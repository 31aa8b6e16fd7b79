// A fake acquirer reporting API for the disputes and settlements use cases (issue 40): an
// AcquirerReporting with evidence rules and a credentials schema, and a client implementing
// AcquirerReportingClient over in-memory disputes and settlements, recording every call. Injected
// through the use cases' `accessFor`, so no acquirer module or sandbox is involved.
import { z } from "zod";
import {
  ReportingApiError,
  type AcquirerDispute,
  type AcquirerReporting,
  type AcquirerReportingClient,
  type AcquirerSettlement,
  type AcquirerSettlementLine,
  type DisputeDecision,
  type DisputeEvidenceFile,
  type SettlementLineReference,
} from "@/lib/acquirers/contract";
import type { ReportingAccessFor } from "@/lib/routing/accounts/reporting-access";
import { db } from "@/lib/db";
import { setReportingCredentials } from "@/lib/routing/accounts/set-reporting-credentials";
import { createTestMerchant } from "./merchant-factories";

export const FAKE_CREDENTIALS = { clientId: "fake-client", clientSecret: "fake-secret-0123456789" };

export class FakeReportingClient implements AcquirerReportingClient<{ clientId: string; clientSecret: string }> {
  disputesById = new Map<string, AcquirerDispute>();
  settlementsById = new Map<string, { settlement: AcquirerSettlement; lines: AcquirerSettlementLine[] }>();
  /** Set: every call answers as a refusal of the credentials (HTTP 401). */
  refuseCredentials = false;
  calls: { method: string; args: unknown[] }[] = [];
  evidenceSent: { disputeId: string; files: readonly DisputeEvidenceFile[]; comment?: string }[] = [];
  answersSent: { disputeId: string; decision: DisputeDecision }[] = [];

  private enter(method: string, args: unknown[], credentials: { clientSecret: string }) {
    this.calls.push({ method, args });
    if (this.refuseCredentials || credentials.clientSecret !== FAKE_CREDENTIALS.clientSecret)
      throw new ReportingApiError("token endpoint answered 401 invalid_client", true, 401);
  }

  async checkCredentials(call: { credentials: { clientSecret: string } }) {
    try {
      this.enter("checkCredentials", [], call.credentials);
      return { ok: true, message: "token issued" };
    } catch (error) {
      return { ok: false, message: (error as Error).message };
    }
  }

  async disputes(request: { openedOnOrAfter: string }, call: { credentials: { clientSecret: string } }) {
    this.enter("disputes", [request], call.credentials);
    return [...this.disputesById.values()].filter(
      (dispute) => dispute.openedOn >= request.openedOnOrAfter || (dispute.status !== "won" && dispute.status !== "lost"),
    );
  }

  async dispute(disputeId: string, call: { credentials: { clientSecret: string } }) {
    this.enter("dispute", [disputeId], call.credentials);
    const found = this.disputesById.get(disputeId);
    if (!found) throw new ReportingApiError(`dispute ${disputeId}: 404`, false, 404);
    return { ...found };
  }

  async submitEvidence(disputeId: string, evidence: { files: readonly DisputeEvidenceFile[]; comment?: string }, call: { credentials: { clientSecret: string } }) {
    this.enter("submitEvidence", [disputeId], call.credentials);
    this.evidenceSent.push({ disputeId, ...evidence });
  }

  async answerDispute(disputeId: string, decision: DisputeDecision, call: { credentials: { clientSecret: string } }) {
    this.enter("answerDispute", [disputeId, decision], call.credentials);
    const found = this.disputesById.get(disputeId);
    if (!found) throw new ReportingApiError(`dispute ${disputeId}: 404`, false, 404);
    this.answersSent.push({ disputeId, decision });
    const after: AcquirerDispute = { ...found, status: decision === "refute" ? "refuted" : "accepted", answers: [] };
    this.disputesById.set(disputeId, after);
    return { ...after };
  }

  async settlements(request: { periodEndOnOrAfter: string }, call: { credentials: { clientSecret: string } }) {
    this.enter("settlements", [request], call.credentials);
    return [...this.settlementsById.values()]
      .map((entry) => entry.settlement)
      .filter((settlement) => settlement.periodEnd >= request.periodEndOnOrAfter || !settlement.settled);
  }

  async settlementLines(settlementId: string, call: { credentials: { clientSecret: string } }) {
    this.enter("settlementLines", [settlementId], call.credentials);
    return this.settlementsById.get(settlementId)?.lines ?? [];
  }

  /** Forgets the calls made so far (the disputes and settlements stay). */
  clearCalls(): void {
    this.calls = [];
    this.evidenceSent = [];
    this.answersSent = [];
    this.refuseCredentials = false;
  }

  callsOf(method: string): number {
    return this.calls.filter((call) => call.method === method).length;
  }
}

export const FAKE_EVIDENCE_RULES = {
  contentTypes: ["application/pdf", "image/jpeg", "image/png"],
  maxBytes: 64 * 1024,
  maxFiles: 5,
  source: "tests/helpers/fake-reporting.ts",
} as const;

/** The fake's lines carry our whole operation id, on each operation (a module whose connector sends it so). */
export const FAKE_LINE_REFERENCE: SettlementLineReference = { of: (operationId) => operationId, sentOn: "every-operation" };

export function fakeReporting(
  client: FakeReportingClient,
  lineReference: SettlementLineReference = FAKE_LINE_REFERENCE,
): AcquirerReporting<{ clientId: string; clientSecret: string }, unknown> {
  return {
    label: "Fake Merchant API",
    credentials: {
      schema: z.object({ clientId: z.string().min(1), clientSecret: z.string().min(8) }),
      fields: [],
    },
    evidence: FAKE_EVIDENCE_RULES,
    lineReference,
    endpoint: () => undefined,
    endpointVariables: { live: "FAKE_REPORTING_URL", test: "FAKE_REPORTING_TEST_URL" },
    createClient: () => client,
  };
}

/** The `accessFor` of the use cases: every processor and mode reaches the fake (its lines' references as `lineReference` says). */
export function fakeAccess(client: FakeReportingClient, lineReference?: SettlementLineReference): ReportingAccessFor {
  const reporting = fakeReporting(client, lineReference) as unknown as AcquirerReporting;
  return () => ({ reporting, client: client as unknown as AcquirerReportingClient<unknown> });
}

/** A dispute as an acquirer reports it, with today's defaults. */
export function acquirerDispute(overrides: Partial<AcquirerDispute> & { disputeId: string }): AcquirerDispute {
  return {
    kind: "chargeback",
    status: "open",
    reasonCode: "4837",
    reason: "fraud",
    amount: 5_000n,
    currency: "DKK",
    partial: false,
    openedOn: new Date().toISOString().slice(0, 10),
    dueOn: new Date(Date.now() + 14 * 86_400_000).toISOString().slice(0, 10),
    answers: ["refute", "accept"],
    ...overrides,
  };
}

export const PDF_BYTES = new Uint8Array([...Buffer.from("%PDF-1.4\n%test evidence\n")]);

/**
 * A new test merchant whose Clearhaus test account reads its reporting API through a new fake
 * client (credentials set as an owner sets them): the merchant, the account, the fake and the
 * access to hand the use cases. `lineReference`: what its settlement lines' references are (default
 * FAKE_LINE_REFERENCE; a real module's to reconcile lines as that acquirer reports them).
 */
export async function merchantWithFakeReporting({ lineReference }: { lineReference?: SettlementLineReference } = {}): Promise<{
  merchantId: string;
  accountId: string;
  fake: FakeReportingClient;
  accessFor: ReportingAccessFor;
}> {
  const { merchantId } = await createTestMerchant();
  const accountId = (await db().acquirerAccount.findFirstOrThrow({ where: { merchantId, processor: "clearhaus", mode: "test" } })).id;
  const fake = new FakeReportingClient();
  const accessFor = fakeAccess(fake, lineReference);
  await setReportingCredentials({ merchantId, accountId, credentials: FAKE_CREDENTIALS, accessFor });
  return { merchantId, accountId, fake, accessFor };
}
