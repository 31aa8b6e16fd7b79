// Settlement lines matched by the reference Clearhaus reports (issue 40; docs/decisions/0208-
// settlement-lines-matched-by-the-reference-the-connector-sends.md), over HTTP: payments made at the
// Clearhaus gateway sandbox by our connector, a settlement published over them at the Merchant API
// sandbox (its sandbox-only scenario), imported by the real reporting client and reconciled. The
// lines carry the `reference` the connector sent with each authorization (the first 30 characters of
// our operation id), and nothing else ties them to our captures: our books do not hold the Merchant
// API's transaction ids (whether they are the Gateway's is not published) or lost the capture's answer.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { forgetMerchantApiTokens } from "@/lib/acquirers/clearhaus/reporting/client";
import type { ProcessorConnector } from "@/lib/acquirers/contract";
import { CardDetails } from "@/lib/cards/card-details";
import { db } from "@/lib/db";
import { setReportingCredentials } from "@/lib/routing/accounts/set-reporting-credentials";
import { MERCHANT_API_SANDBOX_CLIENTS } from "@/lib/sandboxes/acquirers/clearhaus/merchant-api/clients";
import { startSandboxes, type RunningSandboxes } from "@/lib/sandboxes/acquirers/start-sandboxes";
import { getSettlement } from "@/lib/settlements/get-settlement";
import { pollAccountSettlements } from "@/lib/settlements/poll-account-settlements";
import { connectorAt, sandboxCredentials } from "@/tests/helpers/acquirer-accounts";
import { createTestMerchant, createTestPayment } from "@/tests/helpers/merchant-factories";
import { useTestDatabase } from "@/tests/helpers/test-database";

useTestDatabase();

const client = MERCHANT_API_SANDBOX_CLIENTS[0]!;
const day = (offsetDays: number) => new Date(Date.now() + offsetDays * 86_400_000).toISOString().slice(0, 10);
const card = new CardDetails({ pan: "4111111111111111", expMonth: 12, expYear: new Date().getUTCFullYear() + 2, securityCode: "987" });

let sandboxes: RunningSandboxes;
let gateway: ProcessorConnector;
let merchantId: string;
let accountId: string;

beforeAll(async () => {
  sandboxes = await startSandboxes({ processors: ["clearhaus"], threeDs: false, extensions: true });
  // Sandbox account 0, whose Merchant API client is MERCHANT_API_SANDBOX_CLIENTS[0].
  gateway = connectorAt(sandboxes.urls.clearhaus!, sandboxCredentials("clearhaus"));
  ({ merchantId } = await createTestMerchant());
  accountId = (await db().acquirerAccount.findFirstOrThrow({ where: { merchantId, processor: "clearhaus", mode: "test" } })).id;
  await setReportingCredentials({ merchantId, accountId, credentials: { clientId: client.clientId, clientSecret: client.clientSecret } });
});
afterAll(async () => {
  await sandboxes?.close();
  forgetMerchantApiTokens();
});

/**
 * A captured payment in our books whose authorization and capture our connector also made at the
 * gateway sandbox with the same operation ids: the capture's id at the acquirer, and ours.
 */
async function capturedAtTheSandbox(amount: bigint): Promise<{ paymentId: string; captureId: string; acquirerCaptureId: string }> {
  const { paymentId } = await createTestPayment({ merchantId, status: "CAPTURED", amount, captures: [amount], processor: "clearhaus" });
  const authorization = await db().operation.findFirstOrThrow({ where: { paymentId, type: "authorize" } });
  const capture = await db().operation.findFirstOrThrow({ where: { paymentId, type: "capture" } });
  const authorized = await gateway.authorize({ operationId: authorization.id, paymentId, amount, currency: "DKK", card });
  expect(authorized.status).toBe("approved");
  const captured = await gateway.capture({ operationId: capture.id, amount, currency: "DKK", authorizationReference: authorized.processorReference! });
  expect(captured.status).toBe("approved");
  return { paymentId, captureId: capture.id, acquirerCaptureId: captured.processorReference! };
}

describe("a settlement published at the Clearhaus sandbox", () => {
  it("has its lines matched by the 30-character reference the connector sent: two captures of one amount in one hour, and a capture whose answer was lost", async () => {
    const first = await capturedAtTheSandbox(61_000n);
    const second = await capturedAtTheSandbox(61_000n);
    const lost = await capturedAtTheSandbox(62_000n);
    // The lost one: its answer never came back, so we hold no acquirer id and no outcome for it.
    await db().operation.update({ where: { id: lost.captureId }, data: { status: "pending", processorReference: null, completedAt: null, outcomeUnknownSince: new Date() } });

    const answer = await fetch(`${sandboxes.reportingUrls.clearhaus}/sandbox/settlements`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        currency: "DKK",
        period: { start_date: day(-7), end_date: day(-1) },
        payout: { date: day(1) },
        transactions: [first, second, lost].map((payment) => ({ id: payment.acquirerCaptureId, fees: -100 })),
      }),
    });
    expect(answer.status, await answer.clone().text()).toBe(201);
    const published = (await answer.json()) as { id: string };

    expect(await pollAccountSettlements({ accountId })).toMatchObject({ status: "imported" });
    const stored = await db().settlement.findFirstOrThrow({ where: { acquirerAccountId: accountId, acquirerSettlementId: published.id } });
    const settlement = await getSettlement({ merchantId, settlementId: stored.id });
    // What the acquirer reported: its own ids, and the reference it was given (30 of our 32 characters).
    for (const line of settlement.lines) expect(line.reference).toHaveLength(30);
    expect(settlement).toMatchObject({ matchedLines: 3, mismatchedLines: 0, unknownLines: 0 });
    const byAcquirerId = Object.fromEntries(settlement.lines.map((line) => [line.transactionId, [line.operationId, line.matchedBy, line.paymentId]]));
    expect(byAcquirerId).toEqual({
      [first.acquirerCaptureId]: [first.captureId, "reference", first.paymentId],
      [second.acquirerCaptureId]: [second.captureId, "reference", second.paymentId],
      [lost.acquirerCaptureId]: [lost.captureId, "reference", lost.paymentId],
    });
  });
});
