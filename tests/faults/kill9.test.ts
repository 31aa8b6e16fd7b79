// A real `kill -9` of the service (scripts/start.ts, a production build, its own process group)
// while an acquirer call is in flight, after the acquirer acted; then a restart on the same
// database. The restarted service settles the operation by looking it up under its original
// reference: the acquirer performed it once, the merchant is notified once with its responseid,
// and the payment's totals match the ledger. The acquirer sandboxes run in this test process, so
// their ledgers and fault modes are at hand; the service reaches them through its base-URL settings.
// It builds and starts the real service several times (minutes on a loaded machine), so it runs as
// its own step: FAULTS_KILL9=1 npx vitest run --project faults tests/faults/kill9.test.ts
import { mkdirSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { config } from "@/lib/env";
import { armAcquirerFault, clearAcquirerFaults } from "@/lib/sandboxes/acquirers/faults";
import { FINARO_SANDBOX_PATH } from "@/lib/sandboxes/acquirers/finaro";
import { startSandboxes, type RunningSandboxes } from "@/lib/sandboxes/acquirers/start-sandboxes";
import { authorizePayment } from "@/lib/payments/authorize-payment";
import { createTestMerchant, createTestPayment, type TestMerchant } from "@/tests/helpers/merchant-factories";
import { startNotificationReceiver, type NotificationReceiver } from "@/tests/helpers/notification-receiver";
import { startService, type ServiceProcess } from "@/tests/helpers/service-process";
import { useTestDatabase } from "@/tests/helpers/test-database";

const ROOT = path.resolve(import.meta.dirname, "../..");
const database = useTestDatabase();

let sandboxes: RunningSandboxes;
let receiver: NotificationReceiver;
let merchant: TestMerchant;
let service: ServiceProcess | undefined;
let env: Record<string, string>;
const dataDir = path.join(ROOT, ".data-test", `faults-kill9-${process.pid}`);

beforeAll(async () => {
  if (process.env.FAULTS_KILL9 !== "1") return;
  mkdirSync(dataDir, { recursive: true });
  sandboxes = await startSandboxes({ threeDs: false, hangMs: 120_000, extensions: true });
  receiver = await startNotificationReceiver();
  merchant = await createTestMerchant({ defaultNotificationUrl: receiver.url });
  const secrets = config().secrets;
  env = {
    DATABASE_URL: database.current().url,
    SESSION_SECRET: secrets.sessionSecret,
    CARD_DATA_KEY: secrets.cardDataKey,
    API_KEY_SECRET: secrets.apiKeySecret,
    FINARO_BASE_URL: `${sandboxes.urls.finaro}${FINARO_SANDBOX_PATH}`,
    CLEARHAUS_BASE_URL: sandboxes.urls.clearhaus!,
    BAMBORA_BASE_URL: sandboxes.urls.bambora!,
    // Long enough to kill the process while its call is in flight.
    PROCESSOR_TIMEOUT_MS: "30000",
    INNGEST_EMBEDDED_POLL_MS: "200",
  };
}, 900_000);
afterAll(async () => {
  clearAcquirerFaults();
  await service?.stop();
  await receiver?.close();
  await sandboxes?.close();
});

async function until<T>(check: () => Promise<T | undefined | false>, what: string, timeoutMs: number): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}\n${service?.output().slice(-3000) ?? ""}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

describe.runIf(process.env.FAULTS_KILL9 === "1")("kill -9 of the service mid-call", { timeout: 900_000 }, () => {
  it.each(["finaro", "bambora"] as const)("capture at %s: killed after the acquirer captured, restarted, settled once", async (processor) => {
    const amount = 23_000 + (processor === "finaro" ? 1 : 2);
    const { paymentId, storedCardId } = await createTestPayment({
      merchantId: merchant.merchantId,
      status: "PENDING",
      amount: BigInt(amount),
      processor: null,
      withStoredCard: { pan: "4111111111111111" },
    });
    expect((await authorizePayment({ paymentId, source: { kind: "stored", storedCardId: storedCardId! }, processors: [processor] })).status).toBe(
      "approved",
    );
    const authorization = await db().operation.findFirstOrThrow({ where: { paymentId, type: "authorize", status: "approved" } });
    const transaction = sandboxes.ledgers[processor]!.byId(authorization.processorReference!)!;

    service = await startService({ env, dataDir, timeoutMs: 600_000 });
    armAcquirerFault({ mode: "answer_lost_after_acting", processor, operation: "capture", amount });
    const response = await fetch(`${service.baseUrl}/api/${paymentId}/capture`, {
      method: "POST",
      headers: { authorization: `Basic ${merchant.apiKey}`, "content-type": "application/json" },
      body: JSON.stringify({ amount }),
    });
    expect(response.status).toBe(200);
    const { responseid } = (await response.json()) as { responseid: string };
    // The acquirer captured; its answer is held back while the service waits for it.
    await until(async () => transaction.capturedAmount === amount, "the capture at the acquirer", 120_000);
    await service.kill9();
    expect(await db().operation.findFirstOrThrow({ where: { responseId: responseid } })).toMatchObject({ status: "pending" });

    service = await startService({ env, dataDir, timeoutMs: 600_000 });
    const notification = await until(
      async () => receiver.received.find((request) => request.body.responseid === responseid),
      "the capture's notification after the restart",
      300_000,
    );
    expect(notification.body).toMatchObject({ status: "approved", paymentid: paymentId });
    await service.stop();
    service = undefined;

    expect(transaction.children.map((child) => `${child.kind}:${child.amount}`)).toEqual([`capture:${amount}`]);
    const payment = await db().payment.findUniqueOrThrow({ where: { id: paymentId } });
    expect(payment).toMatchObject({ status: "CAPTURED", capturedAmount: BigInt(amount) });
    expect(receiver.received.filter((request) => request.body.responseid === responseid)).toHaveLength(1);
  });
});
