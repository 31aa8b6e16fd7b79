// The overview's figures tell the truth (issue 13): payouts are no approved volume, test
// notifications no delivery failures, and a period without payments shows the account's own currency.
import { describe, expect, it } from "vitest";
import { useTestDatabase } from "@/tests/helpers/test-database";
import { createTestMerchant, createTestPayment } from "@/tests/helpers/merchant-factories";
import { getOverviewStats } from "@/lib/backoffice/queries/overview-stats";
import { db } from "@/lib/db";

useTestDatabase();

describe("getOverviewStats", () => {
  it("counts an approved payout apart from approved volume, payments and the approval rate", async () => {
    const { merchantId } = await createTestMerchant();
    await createTestPayment({ merchantId, status: "CAPTURED", amount: 12_500n, captures: [12_500n], withStoredCard: false });
    const { paymentId: payoutId } = await createTestPayment({ merchantId, status: "CAPTURED", amount: 4_000n, authorizedAmount: 0n, withStoredCard: false });
    await db().payment.update({ where: { id: payoutId }, data: { paymentType: "payout", balance: -4_000n } });
    const stats = await getOverviewStats({ merchantId });
    expect(stats.currencies).toEqual([{ currency: "DKK", approvedAmount: 12_500n, payments: 1 }]);
    expect(stats.rows.reduce((sum, row) => sum + row.approved, 0)).toBe(1);
    expect(stats.payouts).toEqual([{ currency: "DKK", amount: 4_000n, count: 1 }]);
  });

  it("leaves test notifications and their attempts out of the delivery figures", async () => {
    const { merchantId } = await createTestMerchant();
    await db().notification.createMany({
      data: [
        { id: "ot-real", merchantId, kind: "completion", url: "https://x", body: "{}", status: "delivered" },
        { id: "ot-test", merchantId, kind: "test", url: "https://x", body: "{}", status: "failed" },
      ],
    });
    await db().notificationAttempt.createMany({
      data: [
        { id: "ot-a1", notificationId: "ot-real", attemptNumber: 1, startedAt: new Date(), durationMs: 5, statusCode: 200 },
        { id: "ot-a2", notificationId: "ot-test", attemptNumber: 1, startedAt: new Date(), durationMs: 5, statusCode: 500 },
      ],
    });
    const stats = await getOverviewStats({ merchantId });
    expect(stats.notifications).toEqual({ delivered: 1, failed: 0, pending: 0, total: 1, attempts: 1, successfulAttempts: 1, tests: 1 });
  });

  it("gives an account without payments in the period its own currency, and none to an account that never had one", async () => {
    const { merchantId } = await createTestMerchant();
    expect((await getOverviewStats({ merchantId })).accountCurrency).toBeNull();
    await db().paymentSession.create({ data: { id: "ot-session", merchantId, amount: 100n, currency: "SEK", expiresAt: new Date() } });
    expect((await getOverviewStats({ merchantId })).accountCurrency).toBe("SEK");
    const { paymentId } = await createTestPayment({ merchantId, currency: "NOK", withStoredCard: false });
    await db().payment.update({ where: { id: paymentId }, data: { createdAt: new Date("2020-01-01T00:00:00Z") } });
    const stats = await getOverviewStats({ merchantId });
    expect(stats.currencies).toEqual([]);
    expect(stats.accountCurrency).toBe("NOK");
  });
});
