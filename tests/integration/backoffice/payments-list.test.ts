// The payments list: keyset pages in both directions, each filter, search, the CSV export.
import { beforeAll, describe, expect, it } from "vitest";
import { useTestDatabase } from "@/tests/helpers/test-database";
import { createTestMerchant, createTestPayment } from "@/tests/helpers/merchant-factories";
import { listPayments, type PaymentPage } from "@/lib/backoffice/queries/list-payments";
import { parsePaymentFilters, type PaymentFilters } from "@/lib/backoffice/payment-filters";
import { csvCell, exportPaymentsCsv } from "@/lib/backoffice/queries/export-payments-csv";
import { db } from "@/lib/db";
import { DISPLAY_STATES, deriveDisplayState } from "@/lib/payments/derive-display-state";

useTestDatabase();

let merchantId: string;
let otherMerchantId: string;
const created: { id: string; createdAt: Date }[] = [];
const SAME_INSTANT = new Date("2026-11-10T12:00:00.000Z");

beforeAll(async () => {
  merchantId = (await createTestMerchant()).merchantId;
  otherMerchantId = (await createTestMerchant()).merchantId;
  // 60 plain payments, 10 of them sharing one timestamp (ties are broken by id).
  for (let index = 0; index < 60; index++) {
    const { paymentId } = await createTestPayment({ merchantId, amount: BigInt(1000 + index), withStoredCard: false, reference: `ref-${index}` });
    const createdAt = index < 10 ? SAME_INSTANT : new Date(Date.UTC(2026, 10, 1, 0, index));
    await db().payment.update({ where: { id: paymentId }, data: { createdAt } });
    created.push({ id: paymentId, createdAt });
  }
  const special = [
    { status: "CAPTURED" as const, processor: "finaro" as const, card: { pan: "5555555555554444", scheme: "mastercard" }, amount: 50_000n, merchantPaymentId: "order-mc", day: "2026-10-05" },
    { status: "DECLINED" as const, processor: "bambora" as const, card: { pan: "378282246310005", scheme: "amex" }, amount: 7_500n, merchantPaymentId: "order-amex", day: "2026-10-06" },
  ];
  for (const entry of special) {
    // A captured payment has its capture (the state shown follows the operations).
    const captures = entry.status === "CAPTURED" ? [entry.amount] : [];
    const { paymentId } = await createTestPayment({ merchantId, status: entry.status, processor: entry.processor, withStoredCard: entry.card, amount: entry.amount, captures, merchantPaymentId: entry.merchantPaymentId, reference: "=HYPERLINK(\"x\")" });
    await db().payment.update({ where: { id: paymentId }, data: { createdAt: new Date(`${entry.day}T10:00:00Z`) } });
    created.push({ id: paymentId, createdAt: new Date(`${entry.day}T10:00:00Z`) });
  }
  // Another merchant's payment that matches every search below.
  await createTestPayment({ merchantId: otherMerchantId, status: "CAPTURED", processor: "finaro", withStoredCard: { pan: "5555555555554444", scheme: "mastercard" }, merchantPaymentId: "order-mc", amount: 50_000n });
});

const expectedOrder = () => [...created].sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime() || (a.id < b.id ? 1 : -1)).map((entry) => entry.id);
const filters = (params: Record<string, string>): PaymentFilters => parsePaymentFilters(params).filters;

describe("listPayments", () => {
  it("walks every payment exactly once, newest first, in keyset pages, and back", async () => {
    const seen: string[] = [];
    const pages: PaymentPage[] = [];
    let after: string | undefined;
    do {
      const page = await listPayments({ merchantId, mode: "test" as const, filters: {}, after, pageSize: 7 });
      pages.push(page);
      seen.push(...page.rows.map((row) => row.id));
      after = page.next;
    } while (after);
    expect(seen).toEqual(expectedOrder());
    expect(pages[0]!.previous).toBeUndefined();
    // From the third page, "newer" gives back exactly the second page.
    const back = await listPayments({ merchantId, mode: "test" as const, filters: {}, before: pages[2]!.previous, pageSize: 7 });
    expect(back.rows.map((row) => row.id)).toEqual(pages[1]!.rows.map((row) => row.id));
    expect(back.next).toBeDefined();
    expect(back.previous).toBeDefined();
    const first = await listPayments({ merchantId, mode: "test" as const, filters: {}, before: pages[1]!.previous, pageSize: 7 });
    expect(first.rows.map((row) => row.id)).toEqual(pages[0]!.rows.map((row) => row.id));
    expect(first.previous).toBeUndefined();
  });

  it("filters by status, processor, scheme, date range and amount", async () => {
    const ids = async (params: Record<string, string>) => (await listPayments({ merchantId, mode: "test" as const, filters: filters(params) })).rows.map((row) => row.merchantPaymentId ?? row.reference);
    expect(await ids({ status: "captured" })).toEqual(["order-mc"]);
    expect(await ids({ processor: "bambora" })).toEqual(["order-amex"]);
    expect(await ids({ scheme: "amex" })).toEqual(["order-amex"]);
    expect(await ids({ from: "2026-10-01", to: "2026-10-05" })).toEqual(["order-mc"]);
    expect(await ids({ from: "2026-10-06", to: "2026-10-06" })).toEqual(["order-amex"]);
    expect(await ids({ minAmount: "75", maxAmount: "75.00" })).toEqual(["order-amex"]);
    expect((await ids({ minAmount: "10.50", maxAmount: "10.52" })).sort()).toEqual(["ref-50", "ref-51", "ref-52"]);
    expect(await ids({ scheme: "mastercard", status: "declined" })).toEqual([]);
  });

  it("finds a payment by paymentid, merchantpaymentid, reference and last4, never another merchant's", async () => {
    const target = created[5]!.id;
    const search = async (q: string) => (await listPayments({ merchantId, mode: "test" as const, filters: filters({ q }) })).rows.map((row) => row.id);
    expect(await search(target)).toEqual([target]);
    // A reference's start finds it and every reference that starts the same (ref-50 to ref-59).
    const refs = (await db().payment.findMany({ where: { merchantId, reference: { startsWith: "ref-5" } }, select: { id: true } })).map((row) => row.id);
    expect(refs).toHaveLength(11);
    expect((await search("ref-5")).sort()).toEqual(refs.sort());
    expect(await search("ref-5")).toContain(target);
    expect((await search("order-mc")).length).toBe(1);
    expect((await search("4444")).length).toBe(1);
    expect((await search("0005")).length).toBe(1);
    expect(await search("9999")).toEqual([]);
    const theirs = await db().payment.findFirstOrThrow({ where: { merchantId: otherMerchantId }, select: { id: true } });
    expect(await search(theirs.id)).toEqual([]);
  });

  it("finds by the start of a merchantpaymentid, reference or customer email (any case), with LIKE's wildcards as plain text (issue 28)", async () => {
    const { merchantId: shop } = await createTestMerchant();
    const make = async (merchantPaymentId: string, reference: string, email: string | undefined) =>
      (await createTestPayment({ merchantId: shop, merchantPaymentId, reference, customer: email ? { email } : undefined, withStoredCard: false })).paymentId;
    const a = await make("order1001", "inv-2026-0042", "Ada.Lovelace@example.com");
    const b = await make("order1002", "inv-2026-0043", "grace@example.com");
    const c = await make("shop_2001", "100%-off", undefined);
    const search = async (q: string) => (await listPayments({ merchantId: shop, mode: "test" as const, filters: filters({ q }) })).rows.map((row) => row.id).sort();
    expect(await search("order10")).toEqual([a, b].sort());
    expect(await search("order1001")).toEqual([a]);
    expect(await search("inv-2026-004")).toEqual([a, b].sort());
    expect(await search("ada.lovelace@")).toEqual([a]);
    expect(await search("ADA.LOVELACE@EXAMPLE.COM")).toEqual([a]);
    expect(await search("rder")).toEqual([]);
    // _ and % are characters here, not LIKE's wildcards.
    expect(await search("shop_")).toEqual([c]);
    expect(await search("shopx")).toEqual([]);
    expect(await search("100%")).toEqual([c]);
    expect(await search("1%")).toEqual([]);
    expect(await search("%")).toEqual([]);
  });

  it("searches by prefix through the pattern indexes, not by reading every payment (EXPLAIN)", async () => {
    const { merchantId: big } = await createTestMerchant();
    // Enough rows that a sequential scan costs more than the indexes; statistics as in production.
    await db().$executeRaw`
      INSERT INTO "Payment" ("id", "merchantId", "mode", "merchantPaymentId", "status", "amount", "currency", "reference", "customerEmail", "createdAt", "updatedAt")
      SELECT md5(${big} || i::text), ${big}, 'test', 'bulk' || i, 'CAPTURED', 1000, 'DKK', 'inv-' || i, 'buyer' || i || '@example.com', now() - (i || ' seconds')::interval, now()
        FROM generate_series(1, 20000) AS i`;
    await db().$executeRawUnsafe(`ANALYZE "Payment"`);
    const { Prisma } = await import("@/lib/db");
    const { paymentPrefixSearch } = await import("@/lib/backoffice/queries/list-payments");
    for (const q of ["bulk1234", "inv-1999", "Buyer777@"]) {
      const plan = (await db().$queryRaw<{ "QUERY PLAN": string }[]>(Prisma.sql`EXPLAIN ${paymentPrefixSearch(big, "test", q)}`)).map((line) => line["QUERY PLAN"]).join("\n");
      expect(plan, q).toContain("Payment_merchantId_merchantPaymentId_prefix_idx");
      expect(plan, q).toContain("Payment_merchantId_reference_prefix_idx");
      expect(plan, q).toContain("Payment_merchantId_customerEmail_prefix_idx");
      expect(plan, q).not.toMatch(/Seq Scan/);
    }
    expect((await listPayments({ merchantId: big, mode: "test" as const, filters: filters({ q: "bulk1234" }) })).rows.map((row) => row.merchantPaymentId).sort()).toEqual(["bulk1234", ...Array.from({ length: 10 }, (_, i) => `bulk1234${i}`)].sort());
  });

  it("reports invalid filters instead of failing", () => {
    const { filters: parsed, errors } = parsePaymentFilters({ status: "NOPE", minAmount: "1,5", from: "yesterday", processor: "finaro" });
    expect(parsed).toEqual({ processor: "finaro" });
    expect(Object.keys(errors).sort()).toEqual(["from", "minAmount", "status"]);
  });
});

describe("the state filter", () => {
  it("returns for every displayed state exactly the payments deriveDisplayState puts in it", async () => {
    const { merchantId: shop } = await createTestMerchant();
    const seed = async (options: Omit<Parameters<typeof createTestPayment>[0], "merchantId">, extra?: { paymentType?: string; failedAuthorize?: boolean }) => {
      const { paymentId } = await createTestPayment({ merchantId: shop, withStoredCard: false, amount: 12_500n, ...options });
      if (extra?.paymentType) await db().payment.update({ where: { id: paymentId }, data: { paymentType: extra.paymentType } });
      if (extra?.failedAuthorize) await db().operation.create({ data: { id: `op${paymentId}`.slice(0, 32), paymentId, type: "authorize", amount: 12_500n, currency: "DKK", status: "failed" } });
      return paymentId;
    };
    const expected: Record<string, string> = {
      authorized: await seed({ status: "AUTHORIZED" }),
      partially_captured: await seed({ status: "CAPTURED", captures: [5_000n] }),
      captured: await seed({ status: "CAPTURED", captures: [12_500n] }),
      partially_refunded: await seed({ status: "REFUNDED", captures: [5_000n], refunds: [1_000n] }),
      refunded: await seed({ status: "REFUNDED", captures: [5_000n], refunds: [5_000n] }),
      voided: await seed({ status: "VOIDED" }),
      payout: await seed({ status: "CAPTURED", authorizedAmount: 0n }, { paymentType: "payout" }),
      timed_out: await seed({ status: "TIMED_OUT" }, { failedAuthorize: true }),
      abandoned: await seed({ status: "TIMED_OUT" }),
      declined: await seed({ status: "DECLINED" }),
      pending: await seed({ status: "PENDING" }),
    };
    const all = (await listPayments({ merchantId: shop, mode: "test" as const, filters: {} })).rows;
    for (const state of DISPLAY_STATES) {
      const filtered = (await listPayments({ merchantId: shop, mode: "test" as const, filters: filters({ status: state }) })).rows.map((row) => row.id);
      const derived = all.filter((row) => deriveDisplayState(row) === state).map((row) => row.id);
      expect(filtered, state).toEqual(derived);
      expect(filtered, state).toEqual(expected[state] ? [expected[state]] : []);
    }
  });
});

describe("exportPaymentsCsv", () => {
  it("exports the filtered list with amounts in minor units and defused formulas", async () => {
    let csv = "";
    for await (const chunk of exportPaymentsCsv({ merchantId, mode: "test" as const, filters: filters({ scheme: "mastercard" }) })) csv += chunk;
    const lines = csv.trim().split("\r\n");
    expect(lines[0]).toBe("paymentid,merchantpaymentid,created,status,amount,currency,captured,refunded,processor,scheme,last4,reference,paymenttype,parentpaymentid");
    expect(lines).toHaveLength(2);
    expect(lines[1]).toContain(",order-mc,2026-10-05T10:00:00.000Z,captured,50000,DKK,");
    expect(lines[1]).toContain(",finaro,mastercard,4444,\"'=HYPERLINK(\"\"x\"\")\",");
  });

  it("N20: names the parent payment of an MIT or a payout in its last column", async () => {
    const { merchantId: shop } = await createTestMerchant();
    const parent = await createTestPayment({ merchantId: shop, merchantPaymentId: "csvparent", status: "CAPTURED", amount: 5_000n, captures: [5_000n] });
    const child = await createTestPayment({ merchantId: shop, merchantPaymentId: "csvchild", status: "AUTHORIZED", amount: 1_000n, withStoredCard: false });
    await db().payment.update({ where: { id: child.paymentId }, data: { parentPaymentId: parent.paymentId, paymentType: "unscheduled" } });
    let csv = "";
    for await (const chunk of exportPaymentsCsv({ merchantId: shop, mode: "test" as const, filters: filters({}) })) csv += chunk;
    const rows = csv.trim().split("\r\n").map((line) => line.split(","));
    const column = rows[0]!.indexOf("parentpaymentid");
    expect(column).toBe(rows[0]!.length - 1);
    expect(rows.find((cells) => cells[0] === child.paymentId)?.[column]).toBe(parent.paymentId);
    expect(rows.find((cells) => cells[0] === parent.paymentId)?.[column]).toBe("");
  });

  it("writes the state the list shows, not the coarse stored status (newcomer review F8)", async () => {
    const { merchantId: shop } = await createTestMerchant();
    const seeded: Record<string, string> = {
      partially_refunded: (await createTestPayment({ merchantId: shop, status: "REFUNDED", amount: 12_500n, captures: [5_000n], refunds: [1_500n], withStoredCard: false })).paymentId,
      refunded: (await createTestPayment({ merchantId: shop, status: "REFUNDED", amount: 3_000n, captures: [3_000n], refunds: [3_000n], withStoredCard: false })).paymentId,
      partially_captured: (await createTestPayment({ merchantId: shop, status: "CAPTURED", amount: 12_500n, captures: [5_000n], withStoredCard: false })).paymentId,
      abandoned: (await createTestPayment({ merchantId: shop, status: "TIMED_OUT", withStoredCard: false })).paymentId,
    };
    let csv = "";
    for await (const chunk of exportPaymentsCsv({ merchantId: shop, mode: "test" as const, filters: {} })) csv += chunk;
    const [header, ...lines] = csv.trim().split("\r\n");
    const column = header!.split(",").indexOf("status");
    const states = Object.fromEntries(lines.map((line) => [line.split(",")[0], line.split(",")[column]]));
    for (const [state, paymentId] of Object.entries(seeded)) expect(states[paymentId], state).toBe(state);
  });

  it("streams every payment across batches", async () => {
    let rows = 0;
    for await (const chunk of exportPaymentsCsv({ merchantId, mode: "test" as const, filters: {} })) rows += chunk.split("\r\n").filter(Boolean).length;
    expect(rows).toBe(created.length + 1);
  });

  it("quotes cells only when needed", () => {
    expect(csvCell("plain")).toBe("plain");
    expect(csvCell("a,b")).toBe('"a,b"');
    expect(csvCell("-1+1")).toBe(`"'-1+1"`);
    expect(csvCell(1234n)).toBe("1234");
    expect(csvCell(null)).toBe("");
  });
});
