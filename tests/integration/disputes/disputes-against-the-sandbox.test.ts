// Disputes and settlements end to end (issue 40), over HTTP against the strict Clearhaus sandboxes,
// with the real reporting client, the embedded executor and the real pollers driven by a test clock:
// a payment captured at the gateway sandbox, a dispute opened on it at the Merchant API sandbox (its
// scenario endpoint), the `dispute` notification the merchant's server receives, evidence and a
// refute sent through the merchant API that reach the sandbox, the refusals that send nothing, a
// settlement reconciled, and refused credentials shown on the account.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TestClock } from "@cps/inngest-embedded";
import { forgetMerchantApiTokens } from "@/lib/acquirers/clearhaus/reporting/client";
import { createApiKey } from "@/lib/api-keys/create-api-key";
import { createPaymentClient, PaymentApiError } from "@/packages/client/src/index";
import { CardDetails } from "@/lib/cards/card-details";
import { db } from "@/lib/db";
import { inngest } from "@/lib/inngest/client";
import { merchantApiFunctions } from "@/lib/jobs/merchant-api";
import { pollAcquirerDisputesJob, pollAcquirerSettlementsJob } from "@/lib/jobs/poll-reporting-feeds";
import { verifyNotificationSignature } from "@/lib/notifications/sign-notification";
import { authorizePayment } from "@/lib/payments/authorize-payment";
import { setReportingCredentials } from "@/lib/routing/accounts/set-reporting-credentials";
import { testReportingConnection } from "@/lib/routing/accounts/test-reporting-connection";
import { MERCHANT_API_SANDBOX_CLIENTS } from "@/lib/sandboxes/acquirers/clearhaus/merchant-api/clients";
import { startSandboxes, type RunningSandboxes } from "@/lib/sandboxes/acquirers/start-sandboxes";
import { getSettlement } from "@/lib/settlements/get-settlement";
import { eventually, quietFor } from "@/tests/helpers/eventually";
import { startInngestHarness, type InngestHarness } from "@/tests/helpers/inngest-harness";
import { startMerchantApi, type MerchantApiHarness } from "@/tests/helpers/merchant-api-harness";
import { createTestMerchant, createTestPayment, type TestMerchant } from "@/tests/helpers/merchant-factories";
import { startNotificationReceiver, type NotificationReceiver } from "@/tests/helpers/notification-receiver";
import { useTestDatabase } from "@/tests/helpers/test-database";
import { merchantApiSandboxAuth } from "@/tests/helpers/merchant-api-sandbox";

useTestDatabase();

const client = MERCHANT_API_SANDBOX_CLIENTS[0]!;
const CREDENTIALS = { clientId: client.clientId, clientSecret: client.clientSecret };
const PDF = new TextEncoder().encode("%PDF-1.4\n% signed delivery receipt, order 10042\n%%EOF\n");
const day = (offsetDays: number) => new Date(Date.now() + offsetDays * 86_400_000).toISOString().slice(0, 10);

let sandboxes: RunningSandboxes;
let api: MerchantApiHarness;
let receiver: NotificationReceiver;
let harness: InngestHarness;
let merchant: TestMerchant;
let accountId: string;

beforeAll(async () => {
  // Extensions on: the scenario endpoints (/sandbox/disputes, /sandbox/settlements) are sandbox-only.
  sandboxes = await startSandboxes({ processors: ["clearhaus"], threeDs: false, extensions: true });
  api = await startMerchantApi();
  receiver = await startNotificationReceiver();
  harness = await startInngestHarness({
    functions: [...merchantApiFunctions, pollAcquirerDisputesJob, pollAcquirerSettlementsJob],
    clock: new TestClock(),
  });
  merchant = await createTestMerchant({ defaultNotificationUrl: receiver.url });
  accountId = (await db().acquirerAccount.findFirstOrThrow({ where: { merchantId: merchant.merchantId, processor: "clearhaus", mode: "test" } })).id;
  // The sandbox's OAuth client of the gateway sandbox account the merchant's test account uses.
  await setReportingCredentials({ merchantId: merchant.merchantId, accountId, credentials: CREDENTIALS });
});
afterAll(async () => {
  await harness?.stop();
  await receiver?.close();
  await api?.close();
  await sandboxes?.close();
  forgetMerchantApiTokens();
});

/** A payment authorized at the Clearhaus sandbox and captured through POST /api/{paymentid}/capture; its capture operation. */
async function capturedPayment(amount: bigint, merchantPaymentId: string) {
  const { paymentId } = await createTestPayment({ merchantId: merchant.merchantId, merchantPaymentId, status: "PENDING", amount, processor: null, withStoredCard: false });
  const card = new CardDetails({ pan: "4111111111111111", expMonth: 12, expYear: new Date().getFullYear() + 3, securityCode: "987" });
  expect(await authorizePayment({ paymentId, source: { kind: "card", card }, processors: ["clearhaus"] })).toMatchObject({ status: "approved" });
  const accepted = await api.call("POST", `/api/${paymentId}/capture`, { apiKey: merchant.apiKey, body: { amount: Number(amount) } });
  expect(accepted.status).toBe(200);
  const capture = await eventually(
    () => db().operation.findFirst({ where: { paymentId, type: "capture", status: "approved", processorReference: { not: null } } }).then((row) => row ?? undefined),
    { what: "the approved capture at the sandbox", timeoutMs: 30_000 },
  );
  return { paymentId, capture };
}

/** A sandbox-only scenario of the Merchant API sandbox. */
async function scenario(path: string, body: unknown): Promise<Record<string, unknown>> {
  const answer = await fetch(`${sandboxes.reportingUrls.clearhaus}${path}`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
  expect(answer.status, await answer.clone().text()).toBeLessThan(300);
  return (await answer.json()) as Record<string, unknown>;
}

/** GET on the Merchant API sandbox as the merchant's OAuth client: what reached the acquirer. */
async function atTheSandbox<T>(path: string): Promise<T> {
  const root = sandboxes.reportingUrls.clearhaus!;
  const auth = await merchantApiSandboxAuth(root, CREDENTIALS);
  const answer = await fetch(path.startsWith("http") ? path : `${root}${path}`, { headers: auth });
  expect(answer.status).toBe(200);
  return (answer.headers.get("content-type") ?? "").includes("json") ? ((await answer.json()) as T) : (new Uint8Array(await answer.arrayBuffer()) as T);
}

type SandboxFiles = { _embedded: { "ch:files": { name: string; content_type: string; _links: { "ch:data": { href: string; name: string }[] } }[] } };

async function completedRuns(functionId: string): Promise<number> {
  return db().inngestRun.count({ where: { functionId: `${inngest.id}-${functionId}`, status: "completed" } });
}

/** Moves the test clock by one schedule interval of `functionId` and waits for that one run and what it set off. */
async function nextScheduledRun(functionId: "poll-acquirer-disputes" | "poll-acquirer-settlements", interval: string): Promise<void> {
  const before = await completedRuns(functionId);
  harness.advance(interval);
  await eventually(async () => ((await completedRuns(functionId)) > before ? true : undefined), { what: `a completed ${functionId} run`, timeoutMs: 40_000 });
  await harness.waitUntilIdle();
}

const disputeNotifications = (disputeId: string) =>
  db()
    .notification.findMany({ where: { kind: "dispute", copyOfId: null }, orderBy: { createdAt: "asc" } })
    .then((rows) => rows.map((row) => JSON.parse(row.body) as Record<string, unknown>).filter((body) => body.disputeid === disputeId));

function evidenceForm(files: { name: string; type: string; bytes: Uint8Array }[], comment?: string): FormData {
  const form = new FormData();
  for (const file of files) form.append("files", new File([file.bytes as Uint8Array<ArrayBuffer>], file.name, { type: file.type }));
  if (comment !== undefined) form.append("comment", comment);
  return form;
}

let opened: { paymentId: string; captureId: string; acquirerDisputeId: string; disputeId: string };

describe("a dispute opened at the acquirer", () => {
  it("reaches the merchant as a signed dispute notification within one poll interval, and the disputes API shows it", async () => {
    const { paymentId, capture } = await capturedPayment(25_000n, "order10042");
    const atAcquirer = await scenario("/sandbox/disputes", { transaction_id: capture.processorReference, reason: "product_not_provided", reason_code: "13.1" });

    // One interval of the */5 cron on the test clock.
    await nextScheduledRun("poll-acquirer-disputes", "5m");
    const stored = await db().dispute.findFirstOrThrow({ where: { acquirerAccountId: accountId, acquirerDisputeId: atAcquirer.id as string } });
    expect(stored).toMatchObject({ paymentId, operationId: capture.id, status: "open", amount: 25_000n, revision: 1 });
    const delivered = await eventually(() => receiver.received.find((request) => request.body.disputeid === stored.id), { what: "the dispute notification", timeoutMs: 20_000 });
    expect(delivered.headers["x-cps-notification-kind"]).toBe("dispute");
    expect(delivered.body).toMatchObject({
      event: "opened",
      paymentid: paymentId,
      merchantpaymentid: "order10042",
      operationid: capture.id,
      processor: "clearhaus",
      type: "chargeback",
      status: "open",
      reasoncode: "13.1",
      amount: "25000",
      currency: "DKK",
      answers: ["refute", "accept"],
      mode: "test",
    });
    const headers = { id: String(delivered.headers["webhook-id"]), timestamp: String(delivered.headers["webhook-timestamp"]), signature: String(delivered.headers["webhook-signature"]) };
    const signedAt = new Date(Number(headers.timestamp) * 1000);
    expect(verifyNotificationSignature({ secret: merchant.notificationSecret, headers, body: delivered.rawBody, now: signedAt })).toBe(true);

    // The merchant's server reads it through the API: in the payment's list, and on its own.
    const list = await api.call<{ disputes: Record<string, unknown>[] }>("GET", `/api/disputes?paymentid=order10042&status=open`, { apiKey: merchant.apiKey });
    expect(list.status).toBe(200);
    expect(list.body.disputes).toEqual([expect.objectContaining({ disputeid: stored.id, paymentid: paymentId, decision: "", evidencefiles: 0 })]);
    const one = await api.call("GET", `/api/disputes/${stored.id}`, { apiKey: merchant.apiKey });
    expect(one.body).toMatchObject({ disputeid: stored.id, dueon: stored.dueOn!.toISOString().slice(0, 10), status: "open" });
    // Not for another merchant, nor for the same merchant's live key: as a dispute that does not exist.
    const other = await createTestMerchant({ acquirerAccounts: false });
    for (const apiKey of [other.apiKey, merchant.liveApiKey]) {
      const refused = await api.call("GET", `/api/disputes/${stored.id}`, { apiKey });
      expect(refused).toMatchObject({ status: 400, body: { error: "INVALID_PARAMETER", errordescription: "dispute: no such dispute" } });
    }
    opened = { paymentId, captureId: capture.id, acquirerDisputeId: atAcquirer.id as string, disputeId: stored.id };
  });

  it("imported again at the next poll changes nothing and notifies nothing", async () => {
    const before = await db().dispute.findUniqueOrThrow({ where: { id: opened.disputeId } });
    await nextScheduledRun("poll-acquirer-disputes", "5m");
    const after = await db().dispute.findUniqueOrThrow({ where: { id: opened.disputeId } });
    expect(after).toEqual(before);
    expect(await db().dispute.count({ where: { acquirerAccountId: accountId, acquirerDisputeId: opened.acquirerDisputeId } })).toBe(1);
    expect(await disputeNotifications(opened.disputeId)).toHaveLength(1);
    await quietFor(300, "a second delivery, were one made, has the time to arrive");
    expect(receiver.received.filter((request) => request.body.disputeid === opened.disputeId)).toHaveLength(1);
  });

  it("evidence uploaded and a refute sent through the merchant API reach the sandbox (the file's bytes, the stamp) and are audited as the API key", async () => {
    const upload = await api.call("POST", `/api/disputes/${opened.disputeId}/evidence`, {
      apiKey: merchant.apiKey,
      form: evidenceForm([{ name: "receipt-10042.pdf", type: "application/pdf", bytes: PDF }], "Delivered 2 November, signed for."),
    });
    expect(upload.status, JSON.stringify(upload.body)).toBe(200);
    expect(upload.body).toMatchObject({ disputeid: opened.disputeId, evidenceids: [expect.any(String)] });

    const decided = await api.call("POST", `/api/disputes/${opened.disputeId}/decision`, { apiKey: merchant.apiKey, body: { decision: "refute" } });
    expect(decided.status, JSON.stringify(decided.body)).toBe(200);
    // The sandbox moves a refuted dispute under review and offers no answer any more.
    expect(decided.body).toMatchObject({ disputeid: opened.disputeId, status: "under-review", decision: "refute", answers: [], evidencefiles: 1 });

    // At the acquirer: the file with its bytes, and the dispute stamped.
    const files = await atTheSandbox<SandboxFiles>(`/disputes/${opened.acquirerDisputeId}/files`);
    expect(files._embedded["ch:files"]).toEqual([expect.objectContaining({ name: "receipt-10042.pdf", content_type: "application/pdf" })]);
    const download = files._embedded["ch:files"][0]!._links["ch:data"].find((link) => link.name === "download")!.href;
    expect(Buffer.from(await atTheSandbox<Uint8Array>(download)).equals(Buffer.from(PDF))).toBe(true);
    expect(await atTheSandbox<{ status: string }>(`/disputes/${opened.acquirerDisputeId}`)).toMatchObject({ status: "under_review" });

    // Audited as the key that acted, with the file's digest.
    const audit = await db().auditEntry.findMany({ where: { merchantId: merchant.merchantId, target: opened.disputeId }, orderBy: { createdAt: "asc" } });
    expect(audit.map((entry) => [entry.action, entry.actorRole, entry.userId])).toEqual([
      ["dispute.evidence_uploaded", "api_key", null],
      ["dispute.refuted", "api_key", null],
    ]);
    expect(audit[0]!.actorName).toMatch(/^API key /);
    expect(audit[0]!.details).toMatchObject({ files: [{ fileName: "receipt-10042.pdf", contentType: "application/pdf", size: PDF.byteLength }] });
    // The request log keeps the file's name and digest, never its bytes.
    const logged = await eventually(
      () => db().apiRequest.findFirst({ where: { merchantId: merchant.merchantId, path: `/api/disputes/${opened.disputeId}/evidence` } }).then((row) => row ?? undefined),
      { what: "the evidence request in the request log", timeoutMs: 10_000 },
    );
    expect(logged.requestBody).toContain("receipt-10042.pdf");
    expect(logged.requestBody).not.toContain("signed delivery receipt");
  });
});

describe("answers the acquirer must not get", () => {
  it("evidence of a wrong type or too large is refused with the rule, and nothing is stored or sent", async () => {
    const { capture } = await capturedPayment(12_000n, "order10043");
    const atAcquirer = await scenario("/sandbox/disputes", { transaction_id: capture.processorReference, reason: "fraud", reason_code: "10.4" });
    await nextScheduledRun("poll-acquirer-disputes", "5m");
    const dispute = await db().dispute.findFirstOrThrow({ where: { acquirerAccountId: accountId, acquirerDisputeId: atAcquirer.id as string } });
    const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]);
    const tooLarge = new Uint8Array(5 * 1024 * 1024 + 1);
    tooLarge.set(new TextEncoder().encode("%PDF-1.4\n"));

    const wrongType = await api.call("POST", `/api/disputes/${dispute.id}/evidence`, { apiKey: merchant.apiKey, form: evidenceForm([{ name: "photo.png", type: "image/png", bytes: png }]) });
    expect(wrongType.status).toBe(400);
    expect(wrongType.body.errordescription).toMatch(/^files: photo\.png: type image\/png is not accepted by Clearhaus Merchant API \(accepted: application\/pdf\)$/);
    const large = await api.call("POST", `/api/disputes/${dispute.id}/evidence`, { apiKey: merchant.apiKey, form: evidenceForm([{ name: "scan.pdf", type: "application/pdf", bytes: tooLarge }]) });
    expect(large.status).toBe(400);
    expect(large.body.errordescription).toMatch(/scan\.pdf: 5242881 bytes is over Clearhaus Merchant API's limit of 5242880 bytes/);
    const json = await api.call("POST", `/api/disputes/${dispute.id}/evidence`, { apiKey: merchant.apiKey, body: { files: ["x"] } });
    expect(json).toMatchObject({ status: 400, body: { errordescription: expect.stringMatching(/^Content-Type: must be multipart\/form-data/) } });
    const broken = await api.call("POST", `/api/disputes/${dispute.id}/evidence`, {
      apiKey: merchant.apiKey,
      rawBody: "--x\r\nnot a part",
      headers: { "Content-Type": "multipart/form-data; boundary=x" },
    });
    expect(broken).toMatchObject({ status: 400, body: { errordescription: "body: is not valid multipart/form-data" } });
    const noFile = await api.call("POST", `/api/disputes/${dispute.id}/evidence`, { apiKey: merchant.apiKey, form: evidenceForm([], "only a comment") });
    expect(noFile).toMatchObject({ status: 400, body: { errordescription: "files: is required" } });

    expect(await db().disputeEvidence.count({ where: { disputeId: dispute.id } })).toBe(0);
    expect((await atTheSandbox<SandboxFiles>(`/disputes/${atAcquirer.id as string}/files`))._embedded["ch:files"]).toEqual([]);
  });

  it("a dispute past its due date cannot be refuted, and the refusal says why; the acquirer hears nothing", async () => {
    const { capture } = await capturedPayment(13_000n, "order10044");
    const atAcquirer = await scenario("/sandbox/disputes", {
      transaction_id: capture.processorReference,
      reason: "fraud",
      reason_code: "10.4",
      opened_at: day(-20),
      due_at: day(-1),
    });
    await nextScheduledRun("poll-acquirer-disputes", "5m");
    const dispute = await db().dispute.findFirstOrThrow({ where: { acquirerAccountId: accountId, acquirerDisputeId: atAcquirer.id as string } });
    const refused = await api.call("POST", `/api/disputes/${dispute.id}/decision`, { apiKey: merchant.apiKey, body: { decision: "refute" } });
    expect(refused).toMatchObject({
      status: 400,
      body: { error: "INVALID_PARAMETER", errordescription: `dispute: its due date ${day(-1)} has passed: the acquirer takes no answer to it any more` },
    });
    expect(await atTheSandbox<{ status: string }>(`/disputes/${atAcquirer.id as string}`)).toMatchObject({ status: "open" });
    expect(await db().auditEntry.count({ where: { target: dispute.id } })).toBe(0);
  });
  it("a key without the disputes scope reads disputes but cannot answer one; nothing reaches the acquirer", async () => {
    const { capture } = await capturedPayment(15_000n, "order10046");
    const atAcquirer = await scenario("/sandbox/disputes", { transaction_id: capture.processorReference, reason: "fraud", reason_code: "10.4" });
    await nextScheduledRun("poll-acquirer-disputes", "5m");
    const dispute = await db().dispute.findFirstOrThrow({ where: { acquirerAccountId: accountId, acquirerDisputeId: atAcquirer.id as string } });
    const { apiKey: shopKey } = await createApiKey({ merchantId: merchant.merchantId, name: "Web shop", scopes: ["payments", "follow-ups", "read"], mode: "test" });
    expect((await api.call("GET", `/api/disputes/${dispute.id}`, { apiKey: shopKey })).status).toBe(200);
    const refused = await api.call("POST", `/api/disputes/${dispute.id}/decision`, { apiKey: shopKey, body: { decision: "accept" } });
    expect(refused).toMatchObject({ status: 400, body: { error: "INVALID_API_KEY", errordescription: expect.stringContaining("answer disputes") } });
    expect(await atTheSandbox<{ status: string }>(`/disputes/${atAcquirer.id as string}`)).toMatchObject({ status: "open" });
  });
});

describe("the typed client", () => {
  it("lists, reads, sends evidence and accepts a dispute as the API does, and throws the refusals as PaymentApiError", async () => {
    const { paymentId, capture } = await capturedPayment(16_000n, "order10047");
    const atAcquirer = await scenario("/sandbox/disputes", { transaction_id: capture.processorReference, reason: "duplicate", reason_code: "12.6.1" });
    await nextScheduledRun("poll-acquirer-disputes", "5m");
    const shop = createPaymentClient({ baseUrl: api.baseUrl, apiKey: merchant.apiKey });
    const { disputes } = await shop.listDisputes({ paymentid: paymentId });
    expect(disputes).toHaveLength(1);
    const disputeId = disputes[0]!.disputeid;
    expect(await shop.getDispute(disputeId)).toMatchObject({ disputeid: disputeId, reasoncode: "12.6.1", status: "open" });
    await expect(shop.submitDisputeEvidence(disputeId, { files: [{ fileName: "note.txt", contentType: "text/plain", bytes: new TextEncoder().encode("hi") }] })).rejects.toSatisfy(
      (error) => error instanceof PaymentApiError && error.status === 400 && error.code === "INVALID_PARAMETER",
    );
    expect(await shop.submitDisputeEvidence(disputeId, { files: [{ fileName: "refund-policy.pdf", contentType: "application/pdf", bytes: PDF }] }, { idempotencyKey: `ev-${disputeId}` })).toMatchObject({
      disputeid: disputeId,
      evidenceids: [expect.any(String)],
    });
    expect(await shop.decideDispute(disputeId, "accept")).toMatchObject({ disputeid: disputeId, decision: "accept", status: "lost" });
    const files = await atTheSandbox<SandboxFiles>(`/disputes/${atAcquirer.id as string}/files`);
    expect(files._embedded["ch:files"].map((file) => file.name)).toEqual(["refund-policy.pdf"]);
  });
});

describe("a settlement published at the acquirer", () => {
  it("with one matching line, one amount mismatch and one transaction unknown to us reconciles to 1/1/1 with fees, and net = payout + reserve", async () => {
    const matching = await capturedPayment(30_000n, "order20001");
    const differing = await capturedPayment(40_000n, "order20002");
    // The reference Clearhaus reports for that payment: what our connector sent with its authorization.
    const authorization = await db().operation.findFirstOrThrow({ where: { paymentId: differing.paymentId, type: "authorize" } });
    const { reference } = await atTheSandbox<{ reference: string }>(`/transactions/${authorization.processorReference}`);
    const published = await scenario("/sandbox/settlements", {
      currency: "DKK",
      period: { start_date: day(-7), end_date: day(-1) },
      payout: { date: day(1), reference_number: "73423589061" },
      reserve: { amount: 1_000 },
      fees: { interchange: -400, scheme: -200 },
      transactions: [
        // Our capture, by the acquirer's id.
        { id: matching.capture.processorReference, fees: -300 },
        // A capture carrying that payment's reference with another amount than ours.
        { new: { type: "capture", amount: 39_000, reference }, fees: -200 },
        // A transaction made elsewhere on the same account.
        { new: { type: "capture", amount: 5_123, reference: "till-7" }, fees: -100 },
      ],
    });

    // The hourly poller's next run on the test clock.
    await nextScheduledRun("poll-acquirer-settlements", "60m");
    const stored = await db().settlement.findFirstOrThrow({ where: { acquirerAccountId: accountId, acquirerSettlementId: published.id as string } });
    const settlement = await getSettlement({ merchantId: merchant.merchantId, settlementId: stored.id });
    expect(settlement).toMatchObject({ matchedLines: 1, mismatchedLines: 1, unknownLines: 1, payoutDifference: 0n, reserveAmount: 1_000n });
    expect(settlement.feesByKind).toEqual({ interchange: -400n, scheme: -200n });
    expect(settlement.net).toBe(30_000n + 39_000n + 5_123n - 600n);
    expect(settlement.net).toBe(settlement.payoutAmount! + settlement.reserveAmount!);
    const byResult = Object.fromEntries(settlement.lines.map((line) => [line.result, line]));
    expect(byResult.matched).toMatchObject({ operationId: matching.capture.id, matchedBy: "transaction-id", paymentId: matching.paymentId });
    expect(byResult["amount-mismatch"]).toMatchObject({ operationId: differing.capture.id, matchedBy: "reference", amount: 39_000n });
    expect(byResult.unknown).toMatchObject({ operationId: null, amount: 5_123n });
  });
});

describe("Merchant API credentials the acquirer refuses", () => {
  it("show as failing on the account, after a check and after a poll, and an answer through the API says so without a 500", async () => {
    const { capture } = await capturedPayment(14_000n, "order10045");
    const atAcquirer = await scenario("/sandbox/disputes", { transaction_id: capture.processorReference, reason: "fraud", reason_code: "10.4" });
    await nextScheduledRun("poll-acquirer-disputes", "5m");
    const dispute = await db().dispute.findFirstOrThrow({ where: { acquirerAccountId: accountId, acquirerDisputeId: atAcquirer.id as string } });

    await setReportingCredentials({ merchantId: merchant.merchantId, accountId, credentials: { ...CREDENTIALS, clientSecret: "not-the-secret-123" } });
    forgetMerchantApiTokens();
    const check = await testReportingConnection({ merchantId: merchant.merchantId, accountId });
    expect(check.ok).toBe(false);
    expect(await db().acquirerAccount.findUniqueOrThrow({ where: { id: accountId } })).toMatchObject({ reportingProblem: expect.stringMatching(/./), reportingFailures: 1 });

    // The poll fails too (and so does the hourly settlements poll, when these 5 minutes cross its minute).
    await nextScheduledRun("poll-acquirer-disputes", "5m");
    const afterPoll = await db().acquirerAccount.findUniqueOrThrow({ where: { id: accountId } });
    expect(afterPoll.reportingProblem).toMatch(/^credentials refused \(HTTP 401\)/);
    expect(afterPoll.reportingFailures).toBeGreaterThanOrEqual(2);

    const refused = await api.call("POST", `/api/disputes/${dispute.id}/decision`, { apiKey: merchant.apiKey, body: { decision: "accept" } });
    expect(refused).toMatchObject({ status: 502, body: { error: "ACQUIRER_CREDENTIALS_REFUSED" } });
    expect(await atTheSandbox<{ status: string }>(`/disputes/${atAcquirer.id as string}`)).toMatchObject({ status: "open" });
    expect(await db().dispute.findUniqueOrThrow({ where: { id: dispute.id } })).toMatchObject({ decision: null, status: "open" });
  });
});
