// Settlements imported from an acquirer's reporting API and reconciled with our operations (issue
// 40), with a fake client injected: lines matched by the acquirer's id, then our reference, then
// amount and time; the payout checked against the net; our captures missing from every settlement
// after the expected delay listed.
import { beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { AcquirerSettlement, AcquirerSettlementLine } from "@/lib/acquirers/contract";
import { reportingOf } from "@/lib/acquirers/reporting";
import { db } from "@/lib/db";
import { captureLogs } from "@/lib/observability/logger";
import { getSettlement } from "@/lib/settlements/get-settlement";
import { EXPECTED_SETTLEMENT_DELAY_DAYS } from "@/lib/settlements/list-overdue-operations";
import { pollAccountSettlements } from "@/lib/settlements/poll-account-settlements";
import { MATCH_WINDOW_MS } from "@/lib/settlements/reconcile-settlement";
import { FakeReportingClient, fakeAccess, merchantWithFakeReporting } from "@/tests/helpers/fake-reporting";
import { createTestMerchant, createTestPayment } from "@/tests/helpers/merchant-factories";
import { useTestDatabase } from "@/tests/helpers/test-database";

useTestDatabase();

let merchantId: string;
let accountId: string;
let fake: FakeReportingClient;
let accessFor: ReturnType<typeof fakeAccess>;
const day = (offsetDays: number) => new Date(Date.now() + offsetDays * 86_400_000).toISOString().slice(0, 10);

beforeAll(async () => {
  ({ merchantId, accountId, fake, accessFor } = await merchantWithFakeReporting());
});
beforeEach(() => fake.clearCalls());

async function capture(amount: bigint) {
  const { paymentId } = await createTestPayment({ merchantId, status: "CAPTURED", amount, captures: [amount], processor: "clearhaus" });
  return db().operation.findFirstOrThrow({ where: { paymentId, type: "capture" } });
}

function settlement(id: string, overrides: Partial<AcquirerSettlement> = {}): AcquirerSettlement {
  return {
    settlementId: id,
    settled: true,
    currency: "DKK",
    periodStart: day(-30),
    periodEnd: day(-1),
    summary: { sales: 0n, credits: 0n, refunds: 0n, chargebacks: 0n, fees: 0n, otherPostings: 0n, net: 0n },
    fees: {},
    otherPostings: [],
    ...overrides,
  };
}

function line(transactionId: string, amount: bigint, overrides: Partial<AcquirerSettlementLine> = {}): AcquirerSettlementLine {
  return { transactionId, type: "capture", amount, currency: "DKK", processedAt: new Date(), ...overrides };
}

async function stored(acquirerSettlementId: string) {
  return db().settlement.findUniqueOrThrow({
    where: { acquirerAccountId_acquirerSettlementId: { acquirerAccountId: accountId, acquirerSettlementId } },
    include: { lines: { orderBy: { transactionId: "asc" } } },
  });
}

describe("settlement reconciliation", () => {
  it("a settlement with one matching line, one amount mismatch and one unknown transaction reconciles to 1/1/1, with fees, and net = payout + reserve", async () => {
    const matching = await capture(5_000n);
    const mismatching = await capture(4_500n);
    fake.settlementsById.set("stl-1", {
      settlement: settlement("stl-1", {
        payout: { amount: 9_000n, date: day(0), reference: "PAYOUT-1" },
        reserve: { amount: 735n },
        summary: { sales: 9_777n, credits: 0n, refunds: 0n, chargebacks: 0n, fees: -42n, otherPostings: 0n, net: 9_735n },
        fees: { interchange: -30n, scheme: -12n },
      }),
      lines: [
        line(matching.processorReference!, 5_000n, { settled: { gross: 5_000n, fees: -25n, net: 4_975n, currency: "DKK" } }),
        line(mismatching.processorReference!, 4_000n),
        line("acq-unknown-1", 777n),
      ],
    });
    const logs = captureLogs();
    try {
      expect(await pollAccountSettlements({ accountId, accessFor })).toMatchObject({ status: "imported" });
    } finally {
      logs.stop();
    }
    const first = await stored("stl-1");
    expect(first).toMatchObject({ matchedLines: 1, mismatchedLines: 1, unknownLines: 1, payoutDifference: 0n, net: 9_735n, payoutAmount: 9_000n, reserveAmount: 735n });
    expect(first.feesByKind).toEqual({ interchange: "-30", scheme: "-12" });
    const byTransaction = Object.fromEntries(first.lines.map((row) => [row.transactionId, row]));
    expect(byTransaction[matching.processorReference!]).toMatchObject({ result: "matched", operationId: matching.id, matchedBy: "transaction-id", settledNet: 4_975n });
    expect(byTransaction[mismatching.processorReference!]).toMatchObject({ result: "amount_mismatch", operationId: mismatching.id });
    expect(byTransaction["acq-unknown-1"]).toMatchObject({ result: "unknown", operationId: null });
    // The exceptions alert an operator, once.
    expect(logs.entries().filter((entry) => entry.event === "operator.settlement_exceptions")).toEqual([
      expect.objectContaining({ mismatched: 1, unknown: 1, payoutDifference: "0" }),
    ]);

    // As the Settlements page reads it: the merchant's only, fees as money, results as words.
    const page = await getSettlement({ merchantId, settlementId: first.id });
    expect(page.feesByKind).toEqual({ interchange: -30n, scheme: -12n });
    expect(page.lines.map((row) => row.result).sort()).toEqual(["amount-mismatch", "matched", "unknown"]);
    expect(page.lines.find((row) => row.result === "matched")?.paymentId).toBe(matching.paymentId);
    const stranger = await createTestMerchant({ acquirerAccounts: false });
    await expect(getSettlement({ merchantId: stranger.merchantId, settlementId: first.id })).rejects.toThrow("settlement: no such settlement");

    // Read again: a settled settlement is not read again, and nothing changes.
    await pollAccountSettlements({ accountId, accessFor });
    expect(fake.callsOf("settlementLines")).toBe(1);
    const again = await stored("stl-1");
    expect(again.updatedAt).toEqual(first.updatedAt);
    expect(again.lines).toHaveLength(3);
    expect(await db().settlement.count({ where: { acquirerAccountId: accountId, acquirerSettlementId: "stl-1" } })).toBe(1);
  });

  it("says when net differs from payout + reserve", async () => {
    fake.settlementsById.set("stl-2", {
      settlement: settlement("stl-2", { payout: { amount: 1_000n, date: day(0) }, summary: { sales: 1_100n, credits: 0n, refunds: 0n, chargebacks: 0n, fees: 0n, otherPostings: 0n, net: 1_100n } }),
      lines: [],
    });
    await pollAccountSettlements({ accountId, accessFor });
    expect((await stored("stl-2")).payoutDifference).toBe(100n);
  });

  it("matches by our reference, then by amount within the window when exactly one operation qualifies; ambiguous or outside the window is unknown", async () => {
    const byReference = await capture(1_234n);
    const byAmount = await capture(2_222n);
    const twinA = await capture(3_333n);
    await capture(3_333n);
    const late = await capture(4_444n);
    fake.settlementsById.set("stl-3", {
      settlement: settlement("stl-3", { settled: false }),
      lines: [
        line("x-d", 1_234n, { reference: byReference.id }),
        line("x-e", 2_222n, { processedAt: new Date(byAmount.completedAt!.getTime() + 10 * 60_000) }),
        line("x-f", 3_333n, { processedAt: twinA.completedAt! }),
        line("x-g", 4_444n, { processedAt: new Date(late.completedAt!.getTime() + MATCH_WINDOW_MS + 60_000) }),
      ],
    });
    await pollAccountSettlements({ accountId, accessFor });
    const result = Object.fromEntries((await stored("stl-3")).lines.map((row) => [row.transactionId, [row.result, row.matchedBy, row.operationId]]));
    expect(result).toEqual({
      "x-d": ["matched", "reference", byReference.id],
      "x-e": ["matched", "amount-and-time", byAmount.id],
      "x-f": ["unknown", null, null],
      "x-g": ["unknown", null, null],
    });
    // An open settlement is read again, and its matches stay put.
    await pollAccountSettlements({ accountId, accessFor });
    expect(fake.callsOf("settlementLines")).toBe(2);
    expect(Object.fromEntries((await stored("stl-3")).lines.map((row) => [row.transactionId, row.operationId]))["x-e"]).toBe(byAmount.id);
  });

  it("lists our captures on no settlement after the expected delay, and not the recent ones", async () => {
    const overdue = await capture(6_001n);
    const recent = await capture(6_002n);
    await db().operation.update({ where: { id: overdue.id }, data: { completedAt: new Date(Date.now() - (EXPECTED_SETTLEMENT_DELAY_DAYS + 3) * 86_400_000) } });
    await db().operation.update({ where: { id: recent.id }, data: { completedAt: new Date(Date.now() - (EXPECTED_SETTLEMENT_DELAY_DAYS - 4) * 86_400_000) } });
    fake.settlementsById.set("stl-4", { settlement: settlement("stl-4", { settled: false }), lines: [] });
    await pollAccountSettlements({ accountId, accessFor });
    const ids = (await stored("stl-4")).overdueOperationIds;
    expect(ids).toContain(overdue.id);
    expect(ids).not.toContain(recent.id);
  });
});

// docs/decisions/0208-settlement-lines-matched-by-the-reference-the-connector-sends.md: a line
// carries the reference our connector sent, which for Clearhaus is the first 30 characters of the
// authorization's (or credit's) id, not our whole id.
describe("lines carrying the reference as the Clearhaus connector sends it", () => {
  let clearhaus: Awaited<ReturnType<typeof merchantWithFakeReporting>>;
  const rule = reportingOf("clearhaus")!.lineReference;

  beforeAll(async () => {
    clearhaus = await merchantWithFakeReporting({ lineReference: rule });
  });

  async function payment(options: { captures?: bigint[]; refunds?: bigint[]; merchantId?: string }) {
    const captured = (options.captures ?? []).reduce((sum, value) => sum + value, 0n);
    const { paymentId } = await createTestPayment({
      merchantId: options.merchantId ?? clearhaus.merchantId,
      status: options.refunds?.length ? "REFUNDED" : "CAPTURED",
      amount: captured,
      captures: options.captures,
      refunds: options.refunds,
      processor: "clearhaus",
    });
    const operations = await db().operation.findMany({ where: { paymentId }, orderBy: { createdAt: "asc" } });
    const authorization = operations.find((operation) => operation.type === "authorize")!;
    return { authorization, captures: operations.filter((operation) => operation.type === "capture"), refunds: operations.filter((operation) => operation.type === "refund") };
  }

  async function reconciled(settlementId: string, lines: AcquirerSettlementLine[]) {
    clearhaus.fake.settlementsById.set(settlementId, { settlement: settlement(settlementId, { settled: false }), lines });
    await pollAccountSettlements({ accountId: clearhaus.accountId, accessFor: clearhaus.accessFor });
    const row = await db().settlement.findUniqueOrThrow({
      where: { acquirerAccountId_acquirerSettlementId: { acquirerAccountId: clearhaus.accountId, acquirerSettlementId: settlementId } },
      include: { lines: true },
    });
    return Object.fromEntries(row.lines.map((one) => [one.transactionId, [one.result, one.matchedBy, one.operationId]]));
  }

  it("a capture's line carrying its authorization's 30-character reference is matched to that capture, and an amount that differs is a mismatch, not unknown", async () => {
    const sold = await payment({ captures: [7_100n] });
    const differing = await payment({ captures: [7_200n] });
    expect(rule.of(sold.authorization.id)).toHaveLength(30);
    const result = await reconciled("ref-1", [
      line("ch-a", 7_100n, { reference: rule.of(sold.authorization.id) }),
      line("ch-b", 7_000n, { reference: rule.of(differing.authorization.id) }),
    ]);
    expect(result).toEqual({
      "ch-a": ["matched", "reference", sold.captures[0]!.id],
      "ch-b": ["amount_mismatch", "reference", differing.captures[0]!.id],
    });
  });

  it("two captures of the same amount in the same hour, ambiguous by amount, are told apart by their references; a re-run keeps them", async () => {
    const first = await payment({ captures: [7_300n] });
    const second = await payment({ captures: [7_300n] });
    const lines = [
      line("ch-c", 7_300n, { reference: rule.of(second.authorization.id) }),
      line("ch-d", 7_300n, { reference: rule.of(first.authorization.id) }),
    ];
    const expected = { "ch-c": ["matched", "reference", second.captures[0]!.id], "ch-d": ["matched", "reference", first.captures[0]!.id] };
    expect(await reconciled("ref-2", lines)).toEqual(expected);
    expect(await reconciled("ref-2", lines)).toEqual(expected);
  });

  it("the line's type picks the payment's operation: a refund, the authorization itself, and of two partial captures the one of the line's amount", async () => {
    const refunded = await payment({ captures: [7_400n], refunds: [400n] });
    const partial = await payment({ captures: [3_000n, 4_500n] });
    const result = await reconciled("ref-3", [
      line("ch-e", -400n, { type: "refund", reference: rule.of(refunded.authorization.id) }),
      line("ch-f", 7_400n, { type: "authorization", reference: rule.of(refunded.authorization.id) }),
      line("ch-g", 4_500n, { reference: rule.of(partial.authorization.id) }),
      // The other partial capture: the only one of the payment left.
      line("ch-h", 3_100n, { reference: rule.of(partial.authorization.id) }),
    ]);
    expect(result).toEqual({
      "ch-e": ["matched", "reference", refunded.refunds[0]!.id],
      "ch-f": ["matched", "reference", refunded.authorization.id],
      "ch-g": ["matched", "reference", partial.captures[1]!.id],
      "ch-h": ["amount_mismatch", "reference", partial.captures[0]!.id],
    });
  });

  it("names nothing when it is too short, names another account's payment, or leaves two captures of other amounts to choose from", async () => {
    const ours = await payment({ captures: [7_500n] });
    const twoCaptures = await payment({ captures: [2_000n, 3_000n] });
    const stranger = await createTestMerchant();
    const theirs = await payment({ captures: [7_600n], merchantId: stranger.merchantId });
    const result = await reconciled("ref-4", [
      line("ch-i", 7_501n, { reference: ours.authorization.id.slice(0, 15) }),
      line("ch-j", 7_601n, { reference: rule.of(theirs.authorization.id) }),
      line("ch-k", 2_500n, { reference: rule.of(twoCaptures.authorization.id) }),
      line("ch-l", 7_502n, { reference: `${ours.authorization.id.slice(0, 20)}%` }),
    ]);
    expect(result).toEqual({
      "ch-i": ["unknown", null, null],
      "ch-j": ["unknown", null, null],
      "ch-k": ["unknown", null, null],
      "ch-l": ["unknown", null, null],
    });
  });
});
