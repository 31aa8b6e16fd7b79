// A payout records its payment and operation BEFORE it calls the acquirer, so a database overload
// after that point must not be answered 503 SERVICE_UNAVAILABLE ("nothing was done, retry"): a retry
// would pay out twice. It stays a 500 INTERNAL_ERROR and the recorded payout is left for the
// reconciliation. Real HTTP, real database, the acquirer sandbox; the acquirer acts and its answer is
// lost while the test holds the pool's one connection (tests/helpers/exhaust-db-pool.ts).
import { afterAll, beforeAll, expect, it } from "vitest";
import { db } from "@/lib/db";
import { resetConfig } from "@/lib/env";
import { armAcquirerFault, clearAcquirerFaults } from "@/lib/sandboxes/acquirers/faults";
import { startSandboxes, type RunningSandboxes } from "@/lib/sandboxes/acquirers/start-sandboxes";
import { holdThePoolsConnection, useExhaustiblePool } from "@/tests/helpers/exhaust-db-pool";
import { startMerchantApi, type MerchantApiHarness } from "@/tests/helpers/merchant-api-harness";
import { createTestMerchant, createTestPayment, type TestMerchant } from "@/tests/helpers/merchant-factories";
import { useTestDatabase } from "@/tests/helpers/test-database";
import { eventually } from "@/tests/helpers/eventually";

useTestDatabase();
const { usePool } = useExhaustiblePool();

const PROCESSOR_TIMEOUT_MS = 3_000;
let api: MerchantApiHarness;
let sandboxes: RunningSandboxes;
let merchant: TestMerchant;

beforeAll(async () => {
  process.env.PROCESSOR_TIMEOUT_MS = String(PROCESSOR_TIMEOUT_MS);
  resetConfig();
  sandboxes = await startSandboxes({ processors: ["clearhaus"], threeDs: false, hangMs: PROCESSOR_TIMEOUT_MS * 4, extensions: true });
  api = await startMerchantApi();
  merchant = await createTestMerchant({ defaultNotificationUrl: "http://127.0.0.1:9/notify" });
});
afterAll(async () => {
  clearAcquirerFaults();
  await api?.close();
  await sandboxes?.close();
  delete process.env.PROCESSOR_TIMEOUT_MS;
  resetConfig();
});

it("a payout whose database work finds no connection after the payout was recorded answers 500, not a retryable 503", async () => {
  await usePool(1_500);
  const source = await createTestPayment({ merchantId: merchant.merchantId, amount: 10_000n, processor: "clearhaus" });
  const amount = 4_321;
  armAcquirerFault({ mode: "answer_lost_after_acting", processor: "clearhaus", operation: "payout", amount });

  const answer = api.call("POST", `/api/${source.paymentId}/payout`, {
    apiKey: merchant.apiKey,
    body: { amount, currency: "DKK", processor: "clearhaus" },
  });
  // The payout's operation row is written before the acquirer call, which then waits for its time-out.
  const operation = await eventually(
    () =>
      db().operation.findFirst({
        where: { type: "payout", amount: BigInt(amount) },
        select: { id: true, paymentId: true },
      }),
    { timeoutMs: PROCESSOR_TIMEOUT_MS * 3, intervalMs: 50, onTimeout: "return" },
  );
  expect(operation, "the payout was recorded before the acquirer call").toBeDefined();
  const release = await holdThePoolsConnection(PROCESSOR_TIMEOUT_MS * 4);
  let response;
  try {
    response = await answer;
  } finally {
    await release();
  }

  expect(response.status).toBe(500);
  expect(response.body.error).toBe("INTERNAL_ERROR");
  expect(response.headers.get("retry-after")).toBeNull();
  // The acquirer paid out; the recorded payout waits for the reconciliation, which settles it once.
  expect(await db().payment.findUniqueOrThrow({ where: { id: operation!.paymentId }, select: { paymentType: true } })).toEqual({
    paymentType: "payout",
  });
}, 90_000);
