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
    const stats = await getOverviewStats({ merchantId, mode: "test" as const });
    expect(stats.currencies).toEqual([{ currency: "DKK", approvedAmount: 12_500n, capturedAmount: 12_500n, refundedAmount: 0n, netAmount: 12_500n, payments: 1 }]);
    expect(stats.rows.reduce((sum, row) => sum + row.approved, 0)).toBe(1);
    expect(stats.payouts).toEqual([{ currency: "DKK", amount: 4_000n, count: 1 }]);
  });

  it("leaves test notifications and their attempts out of the delivery figures", async () => {
    const { merchantId } = await createTestMerchant();
    await db().notification.createMany({
      data: [
        { id: "ot-real", merchantId, mode: "test" as const, kind: "completion", url: "https://x", body: "{}", status: "delivered" },
        { id: "ot-test", merchantId, mode: "test" as const, kind: "test", url: "https://x", body: "{}", status: "failed" },
      ],
    });
    await db().notificationAttempt.createMany({
      data: [
        { id: "ot-a1", notificationId: "ot-real", attemptNumber: 1, startedAt: new Date(), durationMs: 5, statusCode: 200 },
        { id: "ot-a2", notificationId: "ot-test", attemptNumber: 1, startedAt: new Date(), durationMs: 5, statusCode: 500 },
      ],
    });
    const stats = await getOverviewStats({ merchantId, mode: "test" as const });
    expect(stats.notifications).toEqual({ delivered: 1, retrying: 0, failed: 0, pending: 0, total: 1, attempts: 1, successfulAttempts: 1, tests: 1 });
  });

  it("gives an account without payments in the period its own currency, and none to an account that never had one", async () => {
    const { merchantId } = await createTestMerchant();
    expect((await getOverviewStats({ merchantId, mode: "test" as const })).accountCurrency).toBeNull();
    await db().paymentSession.create({ data: { id: "ot-session", merchantId, mode: "test" as const, amount: 100n, currency: "SEK", expiresAt: new Date() } });
    expect((await getOverviewStats({ merchantId, mode: "test" as const })).accountCurrency).toBe("SEK");
    const { paymentId } = await createTestPayment({ merchantId, currency: "NOK", withStoredCard: false });
    await db().payment.update({ where: { id: paymentId }, data: { createdAt: new Date("2020-01-01T00:00:00Z") } });
    const stats = await getOverviewStats({ merchantId, mode: "test" as const });
    expect(stats.currencies).toEqual([]);
    expect(stats.accountCurrency).toBe("NOK");
  });
});

// Newcomer review F12 and F13 (issue 28): delivered means delivered, each acquirer's declines count
// in its approval rate, and captured, refunded and net volume are totalled per currency over a range.
describe("getOverviewStats over a range (issue 28)", () => {
  it("counts a retrying notification as retrying, not delivered, and the total as every real notification", async () => {
    const { merchantId } = await createTestMerchant();
    await db().notification.createMany({
      data: [
        { id: "ov-d1", merchantId, mode: "test" as const, kind: "completion", url: "https://x", body: "{}", status: "delivered", attemptCount: 1 },
        { id: "ov-r1", merchantId, mode: "test" as const, kind: "capture", url: "https://x", body: "{}", status: "pending", attemptCount: 4, nextAttemptAt: new Date(Date.now() + 3600_000) },
        { id: "ov-r2", merchantId, mode: "test" as const, kind: "refund", url: "https://x", body: "{}", status: "pending", attemptCount: 2, nextAttemptAt: new Date(Date.now() + 3000) },
        { id: "ov-p1", merchantId, mode: "test" as const, kind: "refund", url: "https://x", body: "{}", status: "pending", attemptCount: 0 },
        { id: "ov-f1", merchantId, mode: "test" as const, kind: "void", url: "https://x", body: "{}", status: "failed", attemptCount: 8 },
      ],
    });
    const { notifications } = await getOverviewStats({ merchantId, mode: "test" as const });
    expect(notifications).toMatchObject({ delivered: 1, retrying: 2, pending: 1, failed: 1, total: 5 });
  });

  it("counts every authorization answer for the acquirer that gave it, so a fallback's first decline shows", async () => {
    const { merchantId } = await createTestMerchant();
    const fellBack = (await createTestPayment({ merchantId, status: "AUTHORIZED", processor: "clearhaus", withStoredCard: false })).paymentId;
    await db().operation.create({ data: { id: `od${fellBack}`.slice(0, 32), paymentId: fellBack, type: "authorize", amount: 10_000n, currency: "DKK", status: "declined", processor: "finaro" } });
    const declined = (await createTestPayment({ merchantId, status: "DECLINED", processor: "finaro", withStoredCard: false })).paymentId;
    await db().operation.create({ data: { id: `od${declined}`.slice(0, 32), paymentId: declined, type: "authorize", amount: 10_000n, currency: "DKK", status: "declined", processor: "finaro" } });
    await createTestPayment({ merchantId, status: "AUTHORIZED", processor: "finaro", withStoredCard: false });
    const stats = await getOverviewStats({ merchantId, mode: "test" as const });
    const answers = (processor: string) =>
      stats.attempts.filter((row) => row.processor === processor).reduce((sum, row) => ({ approved: sum.approved + row.approved, declined: sum.declined + row.declined }), { approved: 0, declined: 0 });
    expect(answers("finaro")).toEqual({ approved: 1, declined: 2 });
    expect(answers("clearhaus")).toEqual({ approved: 1, declined: 0 });
    // Per finished payment, as before: 2 of 3 approved (the fallback is an approved payment).
    expect(stats.rows.reduce((sum, row) => sum + row.approved, 0)).toBe(2);
  });

  it("totals approved, captured, refunded and net volume for every currency of the chosen range", async () => {
    const { merchantId } = await createTestMerchant();
    await createTestPayment({ merchantId, status: "REFUNDED", amount: 12_500n, captures: [5_000n], refunds: [1_500n], withStoredCard: false });
    await createTestPayment({ merchantId, status: "AUTHORIZED", amount: 8_000n, withStoredCard: false });
    await createTestPayment({ merchantId, status: "CAPTURED", amount: 2_000n, currency: "EUR", captures: [2_000n], withStoredCard: false });
    const old = (await createTestPayment({ merchantId, status: "CAPTURED", amount: 1_000n, captures: [1_000n], withStoredCard: false })).paymentId;
    await db().payment.update({ where: { id: old }, data: { createdAt: new Date(Date.now() - 40 * 86_400_000) } });

    const recent = await getOverviewStats({ merchantId, mode: "test" as const });
    expect(recent.currencies).toEqual([
      { currency: "DKK", approvedAmount: 20_500n, capturedAmount: 5_000n, refundedAmount: 1_500n, netAmount: 3_500n, payments: 2 },
      { currency: "EUR", approvedAmount: 2_000n, capturedAmount: 2_000n, refundedAmount: 0n, netAmount: 2_000n, payments: 1 },
    ]);
    const today = new Date().toISOString().slice(0, 10);
    const from = new Date(Date.now() - 45 * 86_400_000).toISOString().slice(0, 10);
    const wide = await getOverviewStats({ merchantId, mode: "test" as const, range: { from, to: today } });
    expect(wide.days).toHaveLength(46);
    expect(wide.days[0]).toBe(from);
    expect(wide.currencies.find((entry) => entry.currency === "DKK")).toMatchObject({ capturedAmount: 6_000n, netAmount: 4_500n, payments: 3 });
    const before = await getOverviewStats({ merchantId, mode: "test" as const, range: { from, to: new Date(Date.now() - 35 * 86_400_000).toISOString().slice(0, 10) } });
    expect(before.currencies).toEqual([{ currency: "DKK", approvedAmount: 1_000n, capturedAmount: 1_000n, refundedAmount: 0n, netAmount: 1_000n, payments: 1 }]);
  });
});
