// The payments list of one mode: search, filters and keyset pagination over (createdAt, id)
// descending, which the index Payment(merchantId, mode, createdAt DESC, id DESC) serves directly;
// filtered views use the (merchantId, status|processor, createdAt) indexes. No total count: counting
// a million rows on every page view is what makes dashboards slow.
import { db, Prisma } from "../../db";
import type { Mode } from "../../mode";
import type { DisplayState } from "../../payments/derive-display-state";
import type { PaymentFilters } from "../payment-filters";

export const PAGE_SIZE = 50;

export interface PaymentCursor {
  createdAt: Date;
  id: string;
}

export function encodeCursor(cursor: PaymentCursor): string {
  return Buffer.from(`${cursor.createdAt.toISOString()}|${cursor.id}`).toString("base64url");
}

export function decodeCursor(value: string | undefined): PaymentCursor | undefined {
  if (!value) return undefined;
  const [iso, id] = Buffer.from(value, "base64url").toString("utf8").split("|");
  const createdAt = new Date(iso ?? "");
  if (!id || !/^[A-Za-z0-9]{1,32}$/.test(id) || Number.isNaN(createdAt.getTime())) return undefined;
  return { createdAt, id };
}

/**
 * Payments after (older than) or before (newer than) a cursor. The plain bound on createdAt is
 * redundant with the OR, but it is what lets PostgreSQL start the index scan at the cursor instead
 * of walking and filtering every newer row (page 2,000 went from 110 ms to a few ms).
 */
export function keysetWhere(cursor: PaymentCursor, direction: "older" | "newer"): Prisma.PaymentWhereInput {
  return direction === "older"
    ? { createdAt: { lte: cursor.createdAt }, OR: [{ createdAt: { lt: cursor.createdAt } }, { id: { lt: cursor.id } }] }
    : { createdAt: { gte: cursor.createdAt }, OR: [{ createdAt: { gt: cursor.createdAt } }, { id: { gt: cursor.id } }] };
}

/** Ids of the merchant's stored cards of `mode` ending in these four digits (StoredCard(merchantId, last4) index). */
async function storedCardIdsByLast4(merchantId: string, mode: Mode, last4: string): Promise<string[]> {
  const cards = await db().storedCard.findMany({ where: { merchantId, mode, last4 }, select: { id: true }, take: 5000 });
  return cards.map((card) => card.id);
}

/**
 * The payments deriveDisplayState (lib/payments/derive-display-state.ts) shows in a state, as a
 * where clause: the same rules, read by the database (amounts compared column to column).
 * tests/integration/backoffice/payments-list.test.ts checks that every state's filter returns
 * exactly the payments the function puts in it.
 */
export function displayStateWhere(state: DisplayState): Prisma.PaymentWhereInput {
  const fields = db().payment.fields;
  const notPayout: Prisma.PaymentWhereInput = { paymentType: { not: "payout" } };
  const moneyMoved: Prisma.PaymentWhereInput = { ...notPayout, status: { in: ["CAPTURED", "REFUNDED"] } };
  switch (state) {
    case "payout":
      return { paymentType: "payout", status: { in: ["CAPTURED", "REFUNDED"] } };
    case "authorized":
      return { ...notPayout, status: "AUTHORIZED" };
    case "partially_captured":
      return { ...moneyMoved, refundedAmount: 0n, capturedAmount: { lt: fields.authorizedAmount } };
    case "captured":
      return { ...moneyMoved, refundedAmount: 0n, capturedAmount: { gte: fields.authorizedAmount } };
    case "partially_refunded":
      return { ...moneyMoved, refundedAmount: { gt: 0n, lt: fields.capturedAmount } };
    case "refunded":
      return { ...moneyMoved, refundedAmount: { gt: 0n, gte: fields.capturedAmount } };
    case "timed_out":
      return { status: "TIMED_OUT", operations: { some: { type: "authorize" } } };
    case "abandoned":
      return { status: "TIMED_OUT", operations: { none: { type: "authorize" } } };
    case "pending":
      return { status: "PENDING" };
    case "voided":
      return { status: "VOIDED" };
    case "declined":
      return { status: "DECLINED" };
    case "failed":
      return { status: "FAILED" };
    case "tokenized":
      return { status: "TOKENIZED" };
  }
}

/** Search matches looked at, newest first: a prefix as short as one letter can match every payment. */
export const SEARCH_CANDIDATES = 5000;

/** LIKE's wildcards typed in the search box are plain characters. */
function likePrefix(text: string): string {
  return `${text.replace(/[\\%_]/g, (character) => `\\${character}`)}%`;
}

/**
 * Payments whose merchantpaymentid or reference starts with the text, or whose customer email does
 * in any case: the newest SEARCH_CANDIDATES of them. Index-friendly (newcomer review, search by
 * prefix): the migration payment_search_prefix_indexes adds (merchantId, merchantPaymentId
 * varchar_pattern_ops), (merchantId, reference text_pattern_ops) and (merchantId,
 * lower(customerEmail) text_pattern_ops), which a prefix LIKE can range-scan whatever the database's
 * collation; the three are OR-ed as one bitmap scan (EXPLAIN in
 * tests/integration/backoffice/payments-list.test.ts; 500,000 payments: 2 ms, where a sequential
 * scan took 490 ms). A prefix shared by most payments is read from the (merchantId, createdAt)
 * index instead, which the planner chooses for itself.
 */
export function paymentPrefixSearch(merchantId: string, mode: Mode, q: string): Prisma.Sql {
  const prefix = likePrefix(q);
  return Prisma.sql`
    SELECT "id" FROM "Payment"
     WHERE "merchantId" = ${merchantId} AND "mode" = ${mode}::"Mode"
       AND ("merchantPaymentId" LIKE ${prefix} OR "reference" LIKE ${prefix} OR lower("customerEmail") LIKE ${likePrefix(q.toLowerCase())})
     ORDER BY "createdAt" DESC, "id" DESC
     LIMIT ${SEARCH_CANDIDATES}`;
}

/** The where clause of the filtered list for one merchant and mode (shared by the list and the CSV export). */
export async function paymentWhere(merchantId: string, mode: Mode, filters: PaymentFilters): Promise<Prisma.PaymentWhereInput> {
  const and: Prisma.PaymentWhereInput[] = [{ merchantId, mode }];
  if (filters.status) and.push(displayStateWhere(filters.status));
  if (filters.processor) and.push({ processor: filters.processor });
  if (filters.currency) and.push({ currency: filters.currency });
  if (filters.scheme) and.push({ storedCard: { is: { scheme: filters.scheme } } });
  if (filters.from) and.push({ createdAt: { gte: new Date(`${filters.from}T00:00:00.000Z`) } });
  if (filters.to) and.push({ createdAt: { lt: new Date(new Date(`${filters.to}T00:00:00.000Z`).getTime() + 86_400_000) } });
  if (filters.minAmount !== undefined) and.push({ amount: { gte: filters.minAmount } });
  if (filters.maxAmount !== undefined) and.push({ amount: { lte: filters.maxAmount } });
  if (filters.q) {
    const q = filters.q;
    // Each is an index lookup: the paymentid (primary key), a prefix of the merchantpaymentid, the
    // reference or the customer's email (paymentPrefixSearch), the last 4 digits of a card.
    const any: Prisma.PaymentWhereInput[] = [{ id: q }];
    const byPrefix = (await db().$queryRaw<{ id: string }[]>(paymentPrefixSearch(merchantId, mode, q))).map((row) => row.id);
    if (byPrefix.length > 0) any.push({ id: { in: byPrefix } });
    // last4 is looked up first, so the payment side is a plain IN on the storedCardId index.
    if (/^\d{4}$/.test(q)) {
      const cardIds = await storedCardIdsByLast4(merchantId, mode, q);
      if (cardIds.length > 0) any.push({ storedCardId: { in: cardIds } });
    }
    and.push({ OR: any });
  }
  return { AND: and };
}

export const paymentListSelect = {
  id: true,
  merchantPaymentId: true,
  status: true,
  amount: true,
  currency: true,
  capturedAmount: true,
  refundedAmount: true,
  reference: true,
  processor: true,
  paymentType: true,
  parentPaymentId: true,
  authorizedAmount: true,
  createdAt: true,
  storedCard: { select: { scheme: true, last4: true } },
} satisfies Prisma.PaymentSelect;

export type PaymentListRow = Prisma.PaymentGetPayload<{ select: typeof paymentListSelect }>;

export interface PaymentPage {
  /** With whether an authorization was attempted, which deriveDisplayState reads for timed-out payments. */
  rows: (PaymentListRow & { authorizationAttempted: boolean })[];
  /** Cursor for older payments, when there are more. */
  next?: string;
  /** Cursor for newer payments, when this is not the first page. */
  previous?: string;
}

/**
 * Adds whether an authorization was attempted, which deriveDisplayState reads for timed-out rows
 * only (abandoned or timed out): one look-up on Operation(paymentId, ...) for those of the batch,
 * rather than a count joined to every row. The list and the CSV export use it.
 */
export async function withAuthorizationAttempted<Row extends { id: string; status: string }>(rows: Row[]): Promise<(Row & { authorizationAttempted: boolean })[]> {
  const timedOut = rows.filter((row) => row.status === "TIMED_OUT").map((row) => row.id);
  const attempted = new Set(
    timedOut.length === 0
      ? []
      : (await db().operation.findMany({ where: { paymentId: { in: timedOut }, type: "authorize" }, select: { paymentId: true }, distinct: ["paymentId"] })).map((operation) => operation.paymentId),
  );
  return rows.map((row) => ({ ...row, authorizationAttempted: attempted.has(row.id) }));
}

export async function listPayments(options: {
  merchantId: string;
  mode: Mode;
  filters: PaymentFilters;
  /** Payments older than this cursor. */
  after?: string;
  /** Payments newer than this cursor (the previous page). */
  before?: string;
  pageSize?: number;
}): Promise<PaymentPage> {
  const pageSize = options.pageSize ?? PAGE_SIZE;
  const after = decodeCursor(options.after);
  const before = after ? undefined : decodeCursor(options.before);
  const where = await paymentWhere(options.merchantId, options.mode, options.filters);
  const keyset = after ? keysetWhere(after, "older") : before ? keysetWhere(before, "newer") : undefined;
  const direction = before ? "asc" : "desc";
  const found = await db().payment.findMany({
    where: keyset ? { AND: [where, keyset] } : where,
    orderBy: [{ createdAt: direction }, { id: direction }],
    take: pageSize + 1,
    select: paymentListSelect,
  });
  const hasMore = found.length > pageSize;
  const rows = found.slice(0, pageSize);
  if (before) rows.reverse();
  const first = rows[0];
  const last = rows[rows.length - 1];
  return {
    rows: await withAuthorizationAttempted(rows),
    next: last && (before ? true : hasMore) ? encodeCursor(last) : undefined,
    previous: first && (before ? hasMore : Boolean(after)) ? encodeCursor(first) : undefined,
  };
}
