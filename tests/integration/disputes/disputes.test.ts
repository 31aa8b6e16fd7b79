// Disputes imported from an acquirer's reporting API (issue 40), with a fake client injected: each
// dispute is stored once and tied to our payment by the acquirer's transaction id, the merchant is
// notified once per change (signed, through the one notification path), and answers are refused
// with their reason before anything reaches the acquirer.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { answerDispute } from "@/lib/disputes/answer-dispute";
import { commentOnDispute } from "@/lib/disputes/comment-on-dispute";
import { getDisputeEvidenceFile } from "@/lib/disputes/get-dispute-evidence-file";
import { listDisputes } from "@/lib/disputes/list-disputes";
import { pollAccountDisputes } from "@/lib/disputes/poll-account-disputes";
import { submitDisputeEvidence } from "@/lib/disputes/submit-dispute-evidence";
import { merchantApiFunctions } from "@/lib/jobs/merchant-api";
import { verifyNotificationSignature } from "@/lib/notifications/sign-notification";
import { captureLogs } from "@/lib/observability/logger";
import { REPORTING_ALERT_AFTER_FAILURES, reportingBackoffMs } from "@/lib/routing/accounts/run-reporting-feed";
import { setReportingCredentials } from "@/lib/routing/accounts/set-reporting-credentials";
import { testReportingConnection } from "@/lib/routing/accounts/test-reporting-connection";
import { eventually, quietFor } from "@/tests/helpers/eventually";
import { acquirerDispute, FAKE_CREDENTIALS, FAKE_EVIDENCE_RULES, fakeAccess, FakeReportingClient, PDF_BYTES } from "@/tests/helpers/fake-reporting";
import { startInngestHarness, type InngestHarness } from "@/tests/helpers/inngest-harness";
import { createTestMerchant, createTestPayment, type TestMerchant } from "@/tests/helpers/merchant-factories";
import { startNotificationReceiver, type NotificationReceiver } from "@/tests/helpers/notification-receiver";
import { useTestDatabase } from "@/tests/helpers/test-database";

useTestDatabase();

let receiver: NotificationReceiver;
let harness: InngestHarness;
let merchant: TestMerchant;
let accountId: string;
let fake: FakeReportingClient;
let accessFor: ReturnType<typeof fakeAccess>;

beforeAll(async () => {
  receiver = await startNotificationReceiver();
  harness = await startInngestHarness({ functions: merchantApiFunctions });
  merchant = await createTestMerchant({ defaultNotificationUrl: receiver.url });
  accountId = (await db().acquirerAccount.findFirstOrThrow({ where: { merchantId: merchant.merchantId, processor: "clearhaus", mode: "test" } })).id;
  // One acquirer for the whole file, as in life: the disputes of earlier tests stay at it.
  fake = new FakeReportingClient();
  accessFor = fakeAccess(fake);
});
afterAll(async () => {
  await harness?.stop();
  await receiver?.close();
});
beforeEach(async () => {
  fake.clearCalls();
  await setReportingCredentials({ merchantId: merchant.merchantId, accountId, credentials: FAKE_CREDENTIALS, accessFor });
});

/** A captured payment of the account and its capture's acquirer id. */
async function capturedPayment() {
  const { paymentId } = await createTestPayment({ merchantId: merchant.merchantId, status: "CAPTURED", amount: 5_000n, captures: [5_000n], processor: "clearhaus" });
  const capture = await db().operation.findFirstOrThrow({ where: { paymentId, type: "capture" } });
  return { paymentId, captureId: capture.id, transactionId: capture.processorReference! };
}

async function disputeNotifications(disputeId: string) {
  const rows = await db().notification.findMany({ where: { kind: "dispute", copyOfId: null }, orderBy: { createdAt: "asc" } });
  return rows.map((row) => JSON.parse(row.body) as Record<string, unknown>).filter((body) => body.disputeid === disputeId);
}

describe("importing disputes", () => {
  it("the same dispute imported twice changes nothing and notifies once, signed, with kind dispute", async () => {
    const { paymentId, captureId, transactionId } = await capturedPayment();
    fake.disputesById.set("chb-1", acquirerDispute({ disputeId: "chb-1", transactionId, amount: 5_000n }));
    expect(await pollAccountDisputes({ accountId, accessFor })).toMatchObject({ status: "imported" });
    const stored = await db().dispute.findUniqueOrThrow({ where: { acquirerAccountId_acquirerDisputeId: { acquirerAccountId: accountId, acquirerDisputeId: "chb-1" } } });
    expect(stored).toMatchObject({ paymentId, operationId: captureId, status: "open", kind: "chargeback", amount: 5_000n, revision: 1 });

    expect(await pollAccountDisputes({ accountId, accessFor })).toMatchObject({ status: "imported" });
    const again = await db().dispute.findUniqueOrThrow({ where: { id: stored.id } });
    expect(again.updatedAt).toEqual(stored.updatedAt);
    expect(again.revision).toBe(1);
    expect(await db().dispute.count({ where: { acquirerAccountId: accountId, acquirerDisputeId: "chb-1" } })).toBe(1);
    const bodies = await disputeNotifications(stored.id);
    expect(bodies).toHaveLength(1);
    expect(bodies[0]).toMatchObject({ event: "opened", paymentid: paymentId, operationid: captureId, reasoncode: "4837", amount: "5000", currency: "DKK", status: "open" });

    // Delivered through the one notification path: signed with the merchant's secret, its kind in the header.
    const delivered = await eventually(() => receiver.received.find((request) => request.body.disputeid === stored.id), { timeoutMs: 20_000 });
    expect(delivered.headers["x-cps-notification-kind"]).toBe("dispute");
    const headers = { id: String(delivered.headers["webhook-id"]), timestamp: String(delivered.headers["webhook-timestamp"]), signature: String(delivered.headers["webhook-signature"]) };
    expect(verifyNotificationSignature({ secret: merchant.notificationSecret, headers, body: delivered.rawBody })).toBe(true);
    await quietFor(300, "a second import must not deliver a second notification");
    expect(receiver.received.filter((request) => request.body.disputeid === stored.id)).toHaveLength(1);
  });

  it("a status change updates the dispute and notifies `updated` once; closing it notifies `lost`", async () => {
    const { transactionId } = await capturedPayment();
    fake.disputesById.set("chb-2", acquirerDispute({ disputeId: "chb-2", transactionId }));
    await pollAccountDisputes({ accountId, accessFor });
    fake.disputesById.set("chb-2", { ...fake.disputesById.get("chb-2")!, status: "under-review", answers: [] });
    await pollAccountDisputes({ accountId, accessFor });
    await pollAccountDisputes({ accountId, accessFor });
    const stored = await db().dispute.findFirstOrThrow({ where: { acquirerDisputeId: "chb-2" } });
    expect(stored).toMatchObject({ status: "under_review", answers: [], revision: 2 });
    expect((await disputeNotifications(stored.id)).map((body) => [body.event, body.status])).toEqual([
      ["opened", "open"],
      ["updated", "under-review"],
    ]);

    fake.disputesById.set("chb-2", { ...fake.disputesById.get("chb-2")!, status: "lost" });
    await pollAccountDisputes({ accountId, accessFor });
    expect((await disputeNotifications(stored.id)).map((body) => body.event)).toEqual(["opened", "updated", "lost"]);
  });

  it("keeps a dispute whose transaction is none of ours, with no payment, and still notifies it", async () => {
    fake.disputesById.set("chb-3", acquirerDispute({ disputeId: "chb-3", transactionId: "not-ours-123" }));
    await pollAccountDisputes({ accountId, accessFor });
    const stored = await db().dispute.findFirstOrThrow({ where: { acquirerDisputeId: "chb-3" } });
    expect(stored).toMatchObject({ paymentId: null, operationId: null, transactionId: "not-ours-123" });
    expect(await disputeNotifications(stored.id)).toEqual([expect.objectContaining({ paymentid: "", operationid: "" })]);
  });

  it("reads again a dispute still open at home that the listing left out, so its closing arrives", async () => {
    const { transactionId } = await capturedPayment();
    const old = new Date(Date.now() - 60 * 86_400_000).toISOString().slice(0, 10);
    fake.disputesById.set("chb-4", acquirerDispute({ disputeId: "chb-4", transactionId, openedOn: old }));
    await pollAccountDisputes({ accountId, accessFor });
    // Won: the fake's listing no longer returns it (opened before the cursor and closed).
    fake.disputesById.set("chb-4", { ...fake.disputesById.get("chb-4")!, status: "won", answers: [] });
    await pollAccountDisputes({ accountId, accessFor });
    expect(fake.calls.some((call) => call.method === "dispute" && call.args[0] === "chb-4")).toBe(true);
    expect((await db().dispute.findFirstOrThrow({ where: { acquirerDisputeId: "chb-4" } })).status).toBe("won");
  });
});

describe("answering disputes", () => {
  async function openDispute(id: string, overrides: Parameters<typeof acquirerDispute>[0] = { disputeId: id }) {
    const { transactionId } = await capturedPayment();
    fake.disputesById.set(id, acquirerDispute({ transactionId, ...overrides }));
    await pollAccountDisputes({ accountId, accessFor });
    return (await db().dispute.findFirstOrThrow({ where: { acquirerDisputeId: id } })).id;
  }

  it("refuses evidence of a wrong type or too large with a clear error; nothing is sent or stored", async () => {
    const disputeId = await openDispute("chb-10");
    const html = new Uint8Array([...Buffer.from("<html><script>alert(1)</script></html>")]);
    await expect(
      submitDisputeEvidence({ merchantId: merchant.merchantId, disputeId, files: [{ fileName: "a.html", contentType: "text/html", bytes: html }], accessFor }),
    ).rejects.toThrow(/a\.html: type text\/html is not accepted by Fake Merchant API \(accepted: application\/pdf, image\/jpeg, image\/png\)/);
    // Declared as a PDF, but it is not one.
    await expect(
      submitDisputeEvidence({ merchantId: merchant.merchantId, disputeId, files: [{ fileName: "b.pdf", contentType: "application/pdf", bytes: html }], accessFor }),
    ).rejects.toThrow(/b\.pdf: its content is not application\/pdf/);
    const big = new Uint8Array(FAKE_EVIDENCE_RULES.maxBytes + 1);
    big.set(PDF_BYTES);
    await expect(
      submitDisputeEvidence({ merchantId: merchant.merchantId, disputeId, files: [{ fileName: "c.pdf", contentType: "application/pdf", bytes: big }], accessFor }),
    ).rejects.toThrow(new RegExp(`c\\.pdf: ${FAKE_EVIDENCE_RULES.maxBytes + 1} bytes is over Fake Merchant API's limit of ${FAKE_EVIDENCE_RULES.maxBytes} bytes`));
    expect(fake.callsOf("submitEvidence")).toBe(0);
    expect(await db().disputeEvidence.count({ where: { disputeId } })).toBe(0);
    expect(await db().auditEntry.count({ where: { target: disputeId } })).toBe(0);
  });

  it("sends accepted evidence with its comment, stores it with its digest and audits it", async () => {
    const disputeId = await openDispute("chb-11");
    const { evidenceIds } = await submitDisputeEvidence({
      merchantId: merchant.merchantId,
      disputeId,
      files: [{ fileName: "../../receipt.pdf", contentType: "application/pdf", bytes: PDF_BYTES }],
      comment: "Delivered, signed for.",
      accessFor,
    });
    expect(fake.evidenceSent).toEqual([expect.objectContaining({ disputeId: "chb-11", comment: "Delivered, signed for." })]);
    expect(fake.evidenceSent[0]!.files.map((file) => file.fileName)).toEqual(["receipt.pdf"]);
    const [row] = await db().disputeEvidence.findMany({ where: { id: { in: evidenceIds } } });
    expect(row).toMatchObject({ fileName: "receipt.pdf", contentType: "application/pdf", size: PDF_BYTES.byteLength, sendError: null });
    expect(row!.sentAt).not.toBeNull();
    expect(Buffer.from(row!.bytes).equals(Buffer.from(PDF_BYTES))).toBe(true);
    expect(await db().auditEntry.findFirst({ where: { target: disputeId, action: "dispute.evidence_uploaded" } })).not.toBeNull();

    // Served only as a download that no browser sniffs, and only to its merchant.
    const download = await getDisputeEvidenceFile({ merchantId: merchant.merchantId, evidenceId: evidenceIds[0]! });
    expect(download.headers).toMatchObject({ "Content-Type": "application/pdf", "X-Content-Type-Options": "nosniff" });
    expect(download.headers["Content-Disposition"]).toMatch(/^attachment; filename="receipt\.pdf"/);
    const stranger = await createTestMerchant({ acquirerAccounts: false });
    await expect(getDisputeEvidenceFile({ merchantId: stranger.merchantId, evidenceId: evidenceIds[0]! })).rejects.toThrow("evidence: no such file");

    await commentOnDispute({ merchantId: merchant.merchantId, disputeId, comment: "Tracking: 123", accessFor });
    expect(fake.evidenceSent.at(-1)).toMatchObject({ disputeId: "chb-11", files: [], comment: "Tracking: 123" });
    expect(await db().auditEntry.findFirst({ where: { target: disputeId, action: "dispute.commented" } })).toMatchObject({ details: { comment: "Tracking: 123" } });
  });

  it("a dispute past its due date cannot be answered and says why; nothing is sent", async () => {
    const past = new Date(Date.now() - 2 * 86_400_000).toISOString().slice(0, 10);
    const disputeId = await openDispute("chb-12", { disputeId: "chb-12", dueOn: past });
    await expect(answerDispute({ merchantId: merchant.merchantId, disputeId, decision: "refute", accessFor })).rejects.toThrow(
      `dispute: its due date ${past} has passed: the acquirer takes no answer to it any more`,
    );
    await expect(
      submitDisputeEvidence({ merchantId: merchant.merchantId, disputeId, files: [{ fileName: "r.pdf", contentType: "application/pdf", bytes: PDF_BYTES }], accessFor }),
    ).rejects.toThrow(/due date .* has passed/);
    expect(fake.callsOf("answerDispute") + fake.callsOf("submitEvidence")).toBe(0);
    expect((await db().dispute.findUniqueOrThrow({ where: { id: disputeId } })).decision).toBeNull();
  });

  it("refuses an answer the acquirer does not offer, naming what it offers; nothing is sent", async () => {
    const disputeId = await openDispute("chb-13", { disputeId: "chb-13", answers: ["accept"] });
    await expect(answerDispute({ merchantId: merchant.merchantId, disputeId, decision: "refute", accessFor })).rejects.toThrow(
      "decision: Fake Merchant API does not offer to refute this dispute now (it offers: accept)",
    );
    expect(fake.callsOf("answerDispute")).toBe(0);
  });

  it("refutes through the acquirer, stores its new status, records the decision and audits it", async () => {
    const disputeId = await openDispute("chb-14");
    expect(await answerDispute({ merchantId: merchant.merchantId, disputeId, decision: "refute", accessFor })).toEqual({ status: "refuted" });
    expect(fake.answersSent).toEqual([{ disputeId: "chb-14", decision: "refute" }]);
    expect(await db().dispute.findUniqueOrThrow({ where: { id: disputeId } })).toMatchObject({ status: "refuted", decision: "refute" });
    expect(await db().auditEntry.findFirst({ where: { target: disputeId, action: "dispute.refuted" } })).not.toBeNull();
    expect((await disputeNotifications(disputeId)).map((body) => body.status)).toEqual(["open", "refuted"]);
  });

  it("answers only the merchant's own disputes: another merchant's is no such dispute", async () => {
    const disputeId = await openDispute("chb-15");
    const other = await createTestMerchant({ acquirerAccounts: false });
    await expect(answerDispute({ merchantId: other.merchantId, disputeId, decision: "accept", accessFor })).rejects.toThrow("dispute: no such dispute");
    expect(fake.callsOf("dispute") + fake.callsOf("answerDispute")).toBe(0);
  });
});

describe("listing disputes", () => {
  it("shows the merchant's open disputes first, earliest due date first, and none of another merchant's", async () => {
    const soon = new Date(Date.now() + 2 * 86_400_000).toISOString().slice(0, 10);
    const later = new Date(Date.now() + 20 * 86_400_000).toISOString().slice(0, 10);
    fake.disputesById.set("chb-20", acquirerDispute({ disputeId: "chb-20", dueOn: later }));
    fake.disputesById.set("chb-21", acquirerDispute({ disputeId: "chb-21", dueOn: soon }));
    await pollAccountDisputes({ accountId, accessFor });
    const listed = await listDisputes({ merchantId: merchant.merchantId, mode: "test" });
    const open = listed.filter((dispute) => dispute.status === "open");
    expect(listed.slice(0, open.length)).toEqual(open);
    const dueDates = open.map((dispute) => dispute.dueOn ?? "9999-12-31");
    expect(dueDates).toEqual([...dueDates].sort());
    expect(listed.findIndex((dispute) => dispute.acquirerDisputeId === "chb-21")).toBeLessThan(listed.findIndex((dispute) => dispute.acquirerDisputeId === "chb-20"));
    const stranger = await createTestMerchant({ acquirerAccounts: false });
    expect(await listDisputes({ merchantId: stranger.merchantId, mode: "test" })).toEqual([]);
  });
});

describe("refused credentials", () => {
  it("are recorded on the account as failing, back off, and alert an operator at the third failure in a row", async () => {
    fake.refuseCredentials = true;
    const logs = captureLogs();
    let now = new Date();
    const runs = [];
    try {
      for (let i = 0; i < REPORTING_ALERT_AFTER_FAILURES; i++) {
        runs.push(await pollAccountDisputes({ accountId, accessFor, now }));
        // Within the back-off, the feed is not polled at all.
        expect(await pollAccountDisputes({ accountId, accessFor, now: new Date(now.getTime() + 1000) })).toMatchObject({ status: "waiting" });
        now = new Date(now.getTime() + reportingBackoffMs(i + 1) + 1000);
      }
    } finally {
      logs.stop();
    }
    expect(runs.map((run) => run.status === "failed" && [run.failures, run.alerted])).toEqual([
      [1, false],
      [2, false],
      [3, true],
    ]);
    const account = await db().acquirerAccount.findUniqueOrThrow({ where: { id: accountId } });
    expect(account.reportingFailures).toBe(3);
    expect(account.reportingProblem).toBe("credentials refused (HTTP 401): token endpoint answered 401 invalid_client");
    expect(account.reportingCheckedAt).not.toBeNull();
    expect(logs.entries().filter((entry) => entry.event === "operator.reporting_failing")).toEqual([expect.objectContaining({ accountId, feed: "disputes", failures: 3 })]);

    // Working again: the problem is cleared at the next poll after the back-off.
    fake.refuseCredentials = false;
    expect(await pollAccountDisputes({ accountId, accessFor, now })).toMatchObject({ status: "imported" });
    expect(await db().acquirerAccount.findUniqueOrThrow({ where: { id: accountId } })).toMatchObject({ reportingFailures: 0, reportingProblem: null });
  });

  it("found by a connection test are shown on the account at once", async () => {
    fake.refuseCredentials = true;
    expect(await testReportingConnection({ merchantId: merchant.merchantId, accountId, accessFor })).toEqual({ ok: false, message: "token endpoint answered 401 invalid_client" });
    expect(await db().acquirerAccount.findUniqueOrThrow({ where: { id: accountId } })).toMatchObject({ reportingProblem: "token endpoint answered 401 invalid_client", reportingFailures: 1 });
    fake.refuseCredentials = false;
    expect(await testReportingConnection({ merchantId: merchant.merchantId, accountId, accessFor })).toMatchObject({ ok: true });
    expect(await db().acquirerAccount.findUniqueOrThrow({ where: { id: accountId } })).toMatchObject({ reportingProblem: null, reportingFailures: 0 });
  });
});
