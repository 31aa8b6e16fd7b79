// An operator alert for a follow-up whose outcome is unknown names the acquirer that holds the
// money. A pending capture has no processor of its own until its answer is recorded: the alert must
// name the payment's processor, not "no processor" (money review 4, S3: seen in the log as
// "capture ... at no processor: clearhaus offers no look-up ...").
import { describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { newId } from "@/lib/ids";
import { captureLogs } from "@/lib/observability/logger";
import { alertOperator } from "@/lib/payments/alert-operator";
import { createPendingPayment, createProcessorTestMerchant } from "@/tests/helpers/payment-factories";
import { useTestDatabase } from "@/tests/helpers/test-database";

useTestDatabase();

describe("operator alerts", () => {
  it("name the payment's processor for a pending follow-up that has none recorded yet", async () => {
    const merchantId = await createProcessorTestMerchant();
    const paymentId = await createPendingPayment(merchantId);
    await db().payment.update({ where: { id: paymentId }, data: { processor: "clearhaus", status: "AUTHORIZED" } });
    const operationId = newId();
    await db().operation.create({ data: { id: operationId, paymentId, type: "capture", amount: 5_000n, currency: "DKK", status: "pending" } });
    const logs = captureLogs();
    try {
      expect(await alertOperator({ operationId, reason: "clearhaus offers no look-up of its capture operations by our reference" })).toBe(true);
    } finally {
      logs.stop();
    }
    const alert = logs.entries().find((entry) => entry.event === "operator.needed");
    expect(alert).toMatchObject({ operationId, paymentId, processor: "clearhaus" });
    expect(String(alert?.msg)).toContain(`capture ${operationId} of payment ${paymentId} at clearhaus:`);
    expect(String(alert?.msg)).not.toContain("no processor");
  });
});
