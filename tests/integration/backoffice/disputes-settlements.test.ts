// The back office's Disputes and Settlements (issue 40), through the page queries and actions with a
// fake reporting API injected: the settlement CSV export (one row per line, escaped, formula-safe, the
// merchant's own of the mode shown), and the refusals of the dispute actions and the account's
// reporting actions: each says why, and nothing reaches the acquirer or is stored.
import { beforeAll, beforeEach, describe, expect, it } from "vitest";
import { z } from "zod";
import type { AcquirerDispute, AcquirerSettlementLine } from "@/lib/acquirers/contract";
import { ForbiddenError, NotFoundError, type Actor } from "@/lib/auth/actor";
import { UserFacingError } from "@/lib/backoffice/action-result";
import { commentDispute } from "@/lib/backoffice/actions/comment-dispute";
import { decideDispute } from "@/lib/backoffice/actions/decide-dispute";
import { setAccountReportingCredentials } from "@/lib/backoffice/actions/set-account-reporting-credentials";
import { testAccountReporting } from "@/lib/backoffice/actions/test-account-reporting";
import { uploadDisputeEvidence, type UploadedFile } from "@/lib/backoffice/actions/upload-dispute-evidence";
import { exportSettlementCsv, SETTLEMENT_CSV_COLUMNS } from "@/lib/backoffice/queries/export-settlement-csv";
import { downloadDisputeEvidence } from "@/lib/backoffice/queries/download-dispute-evidence";
import { getDisputeDetail } from "@/lib/backoffice/queries/get-dispute-detail";
import { listDisputeRows } from "@/lib/backoffice/queries/list-dispute-rows";
import { listSettlements } from "@/lib/backoffice/queries/list-settlements";
import { db } from "@/lib/db";
import type { UserRole } from "@/lib/generated/prisma/enums";
import { captureLogs } from "@/lib/observability/logger";
import { pollAccountDisputes } from "@/lib/disputes/poll-account-disputes";
import { pollAccountSettlements } from "@/lib/settlements/poll-account-settlements";
import { createUser } from "@/lib/users/create-user";
import { acquirerDispute, FAKE_CREDENTIALS, FakeReportingClient, fakeAccess, merchantWithFakeReporting, PDF_BYTES } from "@/tests/helpers/fake-reporting";
import { createTestMerchant, createTestPayment } from "@/tests/helpers/merchant-factories";
import { useTestDatabase } from "@/tests/helpers/test-database";

useTestDatabase();

const PASSWORD = "long enough password";
const day = (offsetDays: number) => new Date(Date.now() + offsetDays * 86_400_000).toISOString().slice(0, 10);

let merchantId: string;
let accountId: string;
let fake: FakeReportingClient;
let accessFor: ReturnType<typeof fakeAccess>;
let owner: Actor;
let developer: Actor;
let viewer: Actor;

async function actorFor(merchant: string, role: UserRole, mode: "test" | "live" = "test"): Promise<Actor> {
  const user = await createUser({ merchantId: merchant, email: `${role.toLowerCase()}-${Math.random().toString(36).slice(2)}@example.com`, name: `${role} person`, password: PASSWORD, role });
  return { userId: user.id, merchantId: merchant, mode, role };
}

/** A file as a browser's form sends it. */
function upload(name: string, type: string, bytes: Uint8Array): UploadedFile {
  return { name, type, size: bytes.byteLength, arrayBuffer: async () => bytes.slice().buffer };
}

/** A dispute opened at the (fake) acquirer and imported by the poller; our id. */
async function importedDispute(acquirerId: string, overrides: Partial<AcquirerDispute> = {}) {
  const { paymentId } = await createTestPayment({ merchantId, status: "CAPTURED", amount: 5_000n, captures: [5_000n], processor: "clearhaus" });
  const capture = await db().operation.findFirstOrThrow({ where: { paymentId, type: "capture" } });
  fake.disputesById.set(acquirerId, acquirerDispute({ disputeId: acquirerId, transactionId: capture.processorReference!, ...overrides }));
  await pollAccountDisputes({ accountId, accessFor });
  const stored = await db().dispute.findFirstOrThrow({ where: { acquirerAccountId: accountId, acquirerDisputeId: acquirerId } });
  return { disputeId: stored.id, paymentId };
}

async function nothingSentFor(disputeId: string) {
  expect(fake.evidenceSent).toEqual([]);
  expect(fake.answersSent).toEqual([]);
  expect(await db().disputeEvidence.count({ where: { disputeId } })).toBe(0);
  expect(await db().auditEntry.count({ where: { target: disputeId } })).toBe(0);
}

/** The message and field of a refusal the form shows. */
async function refusal(work: Promise<unknown>): Promise<{ message: string; field?: string }> {
  const error = await work.then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(UserFacingError);
  return { message: (error as UserFacingError).message, field: (error as UserFacingError).field };
}

beforeAll(async () => {
  ({ merchantId, accountId, fake, accessFor } = await merchantWithFakeReporting());
  [owner, developer, viewer] = [await actorFor(merchantId, "OWNER"), await actorFor(merchantId, "DEVELOPER"), await actorFor(merchantId, "VIEWER")];
});
beforeEach(() => fake.clearCalls());

describe("the settlement CSV export", () => {
  it("one row per line, text/csv attachment columns, escaped and formula-safe, only the merchant's own of the mode shown", async () => {
    const { paymentId } = await createTestPayment({ merchantId, merchantPaymentId: "=order,1", status: "CAPTURED", amount: 5_000n, captures: [5_000n], processor: "clearhaus" });
    const capture = await db().operation.findFirstOrThrow({ where: { paymentId, type: "capture" } });
    const line = (transactionId: string, amount: bigint, overrides: Partial<AcquirerSettlementLine> = {}): AcquirerSettlementLine => ({
      transactionId,
      type: "capture",
      amount,
      currency: "DKK",
      processedAt: new Date("2026-11-20T10:00:00Z"),
      ...overrides,
    });
    fake.settlementsById.set("stl-csv", {
      settlement: {
        settlementId: "stl-csv",
        settled: true,
        currency: "DKK",
        periodStart: day(-10),
        periodEnd: day(-3),
        payout: { amount: 5_500n, date: day(-1), reference: "PAY-1" },
        summary: { sales: 5_600n, credits: 0n, refunds: -50n, chargebacks: 0n, fees: -50n, otherPostings: 0n, net: 5_500n },
        fees: { interchange: -30n, scheme: -20n },
        otherPostings: [],
      },
      lines: [
        line(capture.processorReference!, 5_000n, { settled: { gross: 5_000n, fees: -25n, net: 4_975n, currency: "DKK" } }),
        // Text from the acquirer that a spreadsheet would run, a quote and a comma to escape, and a refund's negative amount.
        line("=cmd|' /C calc'!A0", 600n, { reference: '@SUM(1+1)*cmd|"x",y' }),
        line("+41-unknown", -50n, { type: "refund", reference: "-2+3" }),
      ],
    });
    const logs = captureLogs();
    try {
      await pollAccountSettlements({ accountId, accessFor });
    } finally {
      logs.stop();
    }
    const [listed] = await listSettlements({ merchantId, mode: "test", accountId });
    expect(listed).toMatchObject({ matchedLines: 1, unknownLines: 2, payoutDifference: 0n, payoutReference: "PAY-1", acquirerAccount: { id: accountId } });

    const { fileName, csv } = await exportSettlementCsv({ merchantId, mode: "test", settlementId: listed!.id });
    expect(fileName).toBe(`settlement-test-${day(-10)}-${day(-3)}-${listed!.id}.csv`);
    const rows = csv.split("\r\n");
    expect(rows.at(-1)).toBe("");
    expect(rows[0]).toBe(SETTLEMENT_CSV_COLUMNS.join(","));
    expect(rows).toHaveLength(1 + 3 + 1);
    const matched = rows.find((row) => row.includes(capture.processorReference!))!;
    // Minor units as numbers; our ids; the order number defused and quoted (it holds a comma).
    expect(matched).toBe(
      [listed!.id, "stl-csv", capture.processorReference, "capture", "2026-11-20T10:00:00.000Z", "5000", "DKK", "5000", "-25", "4975", "DKK", "matched", "transaction-id", capture.id, paymentId, `"'=order,1"`, ""].join(","),
    );
    const injected = rows.find((row) => row.includes("cmd|"))!;
    expect(injected.startsWith(`${listed!.id},stl-csv,"'=cmd|' /C calc'!A0",capture,`)).toBe(true);
    expect(injected.endsWith(`,unknown,,,,,"'@SUM(1+1)*cmd|""x"",y"`)).toBe(true);
    const refund = rows.find((row) => row.includes("41-unknown"))!;
    // The id starting with + is text and defused; the amount -50 is a number and is not.
    expect(refund).toContain(`,"'+41-unknown",refund,`);
    expect(refund).toContain(",-50,DKK,");
    expect(refund.endsWith(`,"'-2+3"`)).toBe(true);
    // No cell of the file starts with a formula character unquoted.
    for (const row of rows.slice(1, -1)) for (const cell of row.match(/("([^"]|"")*"|[^,]*)/g) ?? []) expect(cell).not.toMatch(/^[=+@]/);

    const stranger = await createTestMerchant({ acquirerAccounts: false });
    await expect(exportSettlementCsv({ merchantId: stranger.merchantId, mode: "test", settlementId: listed!.id })).rejects.toBeInstanceOf(NotFoundError);
    await expect(exportSettlementCsv({ merchantId, mode: "live", settlementId: listed!.id })).rejects.toBeInstanceOf(NotFoundError);
  });
});

describe("dispute actions", () => {
  it("evidence of a wrong type or too large is refused with the rule named; nothing is stored, sent or audited", async () => {
    const { disputeId } = await importedDispute("bo-evidence-bad");
    const html = new Uint8Array(Buffer.from("<html><script>alert(1)</script></html>"));
    const wrongType = await refusal(uploadDisputeEvidence({ actor: developer, input: { disputeId }, files: [upload("proof.html", "text/html", html)], accessFor }));
    expect(wrongType).toEqual({ field: "files", message: "proof.html: type text/html is not accepted by Fake Merchant API (accepted: application/pdf, image/jpeg, image/png)." });
    const disguised = await refusal(uploadDisputeEvidence({ actor: developer, input: { disputeId }, files: [upload("proof.pdf", "application/pdf", html)], accessFor }));
    expect(disguised.message).toBe("proof.pdf: its content is not application/pdf.");
    const big = new Uint8Array(64 * 1024 + 1);
    big.set(PDF_BYTES);
    const tooLarge = await refusal(uploadDisputeEvidence({ actor: developer, input: { disputeId }, files: [upload("big.pdf", "application/pdf", big)], accessFor }));
    expect(tooLarge.message).toBe(`big.pdf: ${64 * 1024 + 1} bytes is over Fake Merchant API's limit of ${64 * 1024} bytes.`);
    const none = await refusal(uploadDisputeEvidence({ actor: developer, input: { disputeId }, files: [upload("", "application/octet-stream", new Uint8Array())], accessFor }));
    expect(none).toEqual({ field: "files", message: "No file given." });
    await nothingSentFor(disputeId);
  });

  it("a dispute past its due date or closed cannot be answered, and the page and the refusal say why", async () => {
    const { disputeId: pastDue } = await importedDispute("bo-past-due", { openedOn: day(-20), dueOn: day(-1) });
    fake.clearCalls();
    const detail = await getDisputeDetail({ merchantId, mode: "test", disputeId: pastDue });
    expect(detail.refusal).toBe(`its due date ${day(-1)} has passed: the acquirer takes no answer to it any more`);
    expect(detail.daysLeft).toBe(-1);
    const expected = `Its due date ${day(-1)} has passed: the acquirer takes no answer to it any more.`;
    expect((await refusal(uploadDisputeEvidence({ actor: owner, input: { disputeId: pastDue }, files: [upload("ok.pdf", "application/pdf", PDF_BYTES)], accessFor }))).message).toBe(expected);
    expect((await refusal(commentDispute({ actor: owner, input: { disputeId: pastDue, comment: "late" }, accessFor }))).message).toBe(expected);
    expect((await refusal(decideDispute({ actor: owner, input: { disputeId: pastDue, decision: "refute" }, accessFor }))).message).toBe(expected);
    await nothingSentFor(pastDue);
    expect(fake.calls).toEqual([]);

    const { disputeId: won } = await importedDispute("bo-won", { status: "won", answers: [] });
    fake.clearCalls();
    expect((await refusal(decideDispute({ actor: owner, input: { disputeId: won, decision: "accept" }, accessFor }))).message).toBe("It is won: the acquirer takes no answer to it any more.");
    expect((await getDisputeDetail({ merchantId, mode: "test", disputeId: won })).refusal).toBe("it is won: the acquirer takes no answer to it any more");
    await nothingSentFor(won);
  });

  it("refuses a viewer, another merchant's or mode's dispute, and bad input, before anything is sent", async () => {
    const { disputeId } = await importedDispute("bo-who");
    await expect(decideDispute({ actor: viewer, input: { disputeId, decision: "refute" }, accessFor })).rejects.toBeInstanceOf(ForbiddenError);
    await expect(commentDispute({ actor: viewer, input: { disputeId, comment: "hi" }, accessFor })).rejects.toBeInstanceOf(ForbiddenError);
    const stranger = await createTestMerchant({ acquirerAccounts: false });
    const strangerOwner = await actorFor(stranger.merchantId, "OWNER");
    await expect(decideDispute({ actor: strangerOwner, input: { disputeId, decision: "refute" }, accessFor })).rejects.toBeInstanceOf(NotFoundError);
    await expect(getDisputeDetail({ merchantId: stranger.merchantId, mode: "test", disputeId })).rejects.toBeInstanceOf(NotFoundError);
    const liveOwner = { ...owner, mode: "live" as const };
    await expect(commentDispute({ actor: liveOwner, input: { disputeId, comment: "hi" }, accessFor })).rejects.toBeInstanceOf(NotFoundError);
    await expect(decideDispute({ actor: owner, input: { disputeId, decision: "maybe" }, accessFor })).rejects.toBeInstanceOf(z.ZodError);
    await expect(commentDispute({ actor: owner, input: { disputeId, comment: "   " }, accessFor })).rejects.toBeInstanceOf(z.ZodError);
    await nothingSentFor(disputeId);
  });

  it("an acquirer that refuses the credentials is said so, nothing is recorded as answered, and the account shows the failure", async () => {
    const { disputeId } = await importedDispute("bo-refused");
    fake.refuseCredentials = true;
    const refused = await refusal(decideDispute({ actor: developer, input: { disputeId, decision: "refute" }, accessFor }));
    expect(refused.message).toMatch(/^The acquirer did not take it: it refused the account's reporting credentials\. Nothing is recorded as answered/);
    const row = await db().dispute.findUniqueOrThrow({ where: { id: disputeId } });
    expect(row).toMatchObject({ decision: null, status: "open" });
    const account = await db().acquirerAccount.findUniqueOrThrow({ where: { id: accountId } });
    expect(account.reportingProblem).toMatch(/^credentials refused \(HTTP 401\)/);
    expect(account.reportingFailures).toBeGreaterThan(0);
    await nothingSentFor(disputeId);
  });

  it("a developer uploads evidence with a comment, comments and refutes: each sent and audited as that user; the list filters by kind and status", async () => {
    const { disputeId, paymentId } = await importedDispute("bo-happy", { kind: "retrieval-request" });
    const { evidenceIds } = await uploadDisputeEvidence({ actor: developer, input: { disputeId, comment: "receipt attached" }, files: [upload("receipt.pdf", "application/pdf", PDF_BYTES)], accessFor });
    expect(evidenceIds).toHaveLength(1);
    await commentDispute({ actor: developer, input: { disputeId, comment: "delivered on time" }, accessFor });
    expect(await decideDispute({ actor: developer, input: { disputeId, decision: "refute" }, accessFor })).toEqual({ decision: "refute", status: "refuted" });
    expect(fake.evidenceSent.map((sent) => [sent.files.map((file) => file.fileName), sent.comment])).toEqual([
      [["receipt.pdf"], "receipt attached"],
      [[], "delivered on time"],
    ]);
    expect(fake.answersSent).toEqual([{ disputeId: "bo-happy", decision: "refute" }]);
    const detail = await getDisputeDetail({ merchantId, mode: "test", disputeId });
    expect(detail).toMatchObject({ status: "refuted", decision: "refute", paymentId, refusal: "it is refuted: the acquirer takes no answer to it any more" });
    expect(detail.evidence).toEqual([expect.objectContaining({ fileName: "receipt.pdf", contentType: "application/pdf", size: PDF_BYTES.byteLength })]);
    expect(detail.evidence[0]!.sentAt).not.toBeNull();
    expect(detail.audit.map((entry) => [entry.action, entry.actorName])).toEqual([
      ["dispute.evidence_uploaded", "DEVELOPER person"],
      ["dispute.commented", "DEVELOPER person"],
      ["dispute.refuted", "DEVELOPER person"],
    ]);

    // The file downloads as sent, as an attachment only; not from another mode or merchant.
    const file = await downloadDisputeEvidence({ merchantId, mode: "test", disputeId, evidenceId: evidenceIds[0]! });
    expect(Buffer.from(file.bytes).equals(Buffer.from(PDF_BYTES))).toBe(true);
    expect(file.headers).toMatchObject({ "Content-Type": "application/pdf", "X-Content-Type-Options": "nosniff", "Content-Disposition": expect.stringMatching(/^attachment; filename="receipt\.pdf"/) });
    await expect(downloadDisputeEvidence({ merchantId, mode: "live", disputeId, evidenceId: evidenceIds[0]! })).rejects.toBeInstanceOf(NotFoundError);
    const stranger = await createTestMerchant({ acquirerAccounts: false });
    await expect(downloadDisputeEvidence({ merchantId: stranger.merchantId, mode: "test", disputeId, evidenceId: evidenceIds[0]! })).rejects.toBeInstanceOf(NotFoundError);
    expect(await listDisputeRows({ merchantId: stranger.merchantId, mode: "test", filters: {} })).toEqual([]);
    expect(await listDisputeRows({ merchantId, mode: "live", filters: {} })).toEqual([]);
    expect(await listSettlements({ merchantId, mode: "live" })).toEqual([]);

    const retrievals = await listDisputeRows({ merchantId, mode: "test", filters: { kind: "retrieval-request" } });
    expect(retrievals.map((row) => row.disputeId)).toEqual([disputeId]);
    expect(retrievals[0]).toMatchObject({ paymentId, accountName: expect.any(String), status: "refuted" });
    const open = await listDisputeRows({ merchantId, mode: "test", filters: { status: "open" } });
    expect(open.length).toBeGreaterThan(0);
    expect(open.every((row) => row.status === "open")).toBe(true);
    // Still to answer first, earliest due date first.
    const dues = open.map((row) => row.dueOn ?? "9999");
    expect(dues).toEqual([...dues].sort());
  });
});

describe("the account's reporting API", () => {
  it("only owners set credentials; bad fields are named before the password is asked; an acquirer without an API says so", async () => {
    await expect(setAccountReportingCredentials({ actor: developer, form: { accountId }, accessFor })).rejects.toBeInstanceOf(ForbiddenError);
    const before = await db().acquirerAccount.findUniqueOrThrow({ where: { id: accountId }, select: { reportingCredentialsFingerprint: true } });
    const missing = await setAccountReportingCredentials({ actor: owner, form: { accountId, "credential.clientId": "client-1" }, accessFor }).catch((error: unknown) => error);
    expect(missing).toBeInstanceOf(z.ZodError);
    expect((missing as z.ZodError).issues.map((issue) => issue.path[0])).toEqual(["credential.clientSecret"]);
    await expect(
      setAccountReportingCredentials({ actor: owner, form: { accountId, "credential.clientId": "client-1", "credential.clientSecret": "new-secret-0123" }, accessFor }),
    ).rejects.toThrow(/Enter your password/);
    expect(await db().acquirerAccount.findUniqueOrThrow({ where: { id: accountId }, select: { reportingCredentialsFingerprint: true } })).toEqual(before);

    const finaro = await db().acquirerAccount.findFirstOrThrow({ where: { merchantId, processor: "finaro", mode: "test" } });
    const none = await refusal(setAccountReportingCredentials({ actor: owner, form: { accountId: finaro.id, currentPassword: PASSWORD }, accessFor }));
    expect(none.message).toMatch(/^Finaro publishes no dispute or settlement API/);

    const stranger = await createTestMerchant({ acquirerAccounts: false });
    await expect(setAccountReportingCredentials({ actor: await actorFor(stranger.merchantId, "OWNER"), form: { accountId, currentPassword: PASSWORD }, accessFor })).rejects.toBeInstanceOf(
      NotFoundError,
    );
  });

  it("credentials the acquirer refuses are shown as failing on the account after the test, and audited", async () => {
    const saved = await setAccountReportingCredentials({
      actor: owner,
      form: { accountId, "credential.clientId": FAKE_CREDENTIALS.clientId, "credential.clientSecret": "wrong-secret-0123", currentPassword: PASSWORD },
      accessFor,
    });
    expect(saved.fingerprint).toMatch(/^[0-9a-f]{16}$/);
    const result = await testAccountReporting({ actor: owner, form: { accountId }, accessFor });
    expect(result).toEqual({ ok: false, message: "token endpoint answered 401 invalid_client" });
    const account = await db().acquirerAccount.findUniqueOrThrow({ where: { id: accountId } });
    expect(account).toMatchObject({ reportingProblem: "token endpoint answered 401 invalid_client", reportingFailures: 1 });
    const audit = await db().auditEntry.findMany({ where: { merchantId, target: accountId, userId: owner.userId }, select: { action: true, details: true } });
    expect(audit).toHaveLength(2);
    expect(audit).toEqual(
      expect.arrayContaining([
        { action: "acquirer_account.reporting_credentials_changed", details: { fingerprint: saved.fingerprint, api: "Fake Merchant API" } },
        { action: "acquirer_account.connection_tested", details: { api: "reporting", ok: false, message: "token endpoint answered 401 invalid_client" } },
      ]),
    );
    await expect(testAccountReporting({ actor: developer, form: { accountId }, accessFor })).rejects.toBeInstanceOf(ForbiddenError);

    // Put right: the test passes and the account no longer fails.
    await setAccountReportingCredentials({ actor: owner, form: { accountId, "credential.clientId": FAKE_CREDENTIALS.clientId, "credential.clientSecret": FAKE_CREDENTIALS.clientSecret, currentPassword: PASSWORD }, accessFor });
    expect(await testAccountReporting({ actor: owner, form: { accountId }, accessFor })).toMatchObject({ ok: true });
    expect(await db().acquirerAccount.findUniqueOrThrow({ where: { id: accountId }, select: { reportingProblem: true, reportingFailures: true } })).toEqual({ reportingProblem: null, reportingFailures: 0 });
  });
});
