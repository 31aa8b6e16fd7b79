// Clearhaus Merchant API answers (HAL JSON) → our dispute, settlement and line shapes: pure, each
// answer read through its zod schema first. Field by field from the rels pages (docs/acquirers.md,
// "Disputes and settlements"; source ids [S4] dispute, [S5] disputes example, [S7] settlement,
// [S8] settlements, [S10] transaction, [S11] transactions, [S14] files, of
// /work/notes/merchant-api-references.md §1). An answer that does not fit throws ReportingApiError:
// the poller backs off and alerts rather than importing half a dispute.
import { z } from "zod";
import {
  ReportingApiError,
  type AcquirerDispute,
  type AcquirerSettlement,
  type AcquirerSettlementLine,
  type DisputeDecision,
  type DisputeKind,
  type DisputeStatus,
} from "../../contract";

const calendarDate = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, "a date YYYY-MM-DD");
/** "Amount in minor units of given currency (e.g. cents if in Euro)" [S4, S7, S10]. */
const minorUnits = z.number().int().safe();
const currency = z.string().regex(/^[A-Z]{3}$/, "ISO 4217 alpha-3");

/** A HAL link; hrefs may be RFC 6570 templates ([S1] "Templated URLs will be provided when appropriate"). */
export const halLink = z.object({ href: z.string().min(1), templated: z.boolean().optional(), name: z.string().optional() });
export type HalLink = z.infer<typeof halLink>;
/** A relation is one link or an array of named links (`ch:stamps`, `ch:data` [S5, S14]). */
const halRelation = z.union([halLink, z.array(halLink)]);
export const halLinks = z.record(z.string(), halRelation);
export type HalLinks = z.infer<typeof halLinks>;

/** The root resource [S2]: only links; the conditional ones may be absent. */
export const merchantApiRoot = z.object({ _links: halLinks });

/** A page-based collection (accounts, disputes, settlements, files [S5, S8, S14]): count, page, per_page. */
export function pagedCollection<T extends z.ZodType>(relation: string, item: T) {
  return z.object({
    count: z.number().int().nonnegative().optional(),
    page: z.number().int().positive().optional(),
    per_page: z.number().int().positive().optional(),
    _links: halLinks.optional(),
    // An empty collection may leave `_embedded` out: the docs show only non-empty examples.
    _embedded: z.object({ [relation]: z.array(item) }).partial().optional(),
  });
}

/** The account resource [S3]: what `checkCredentials` reports. */
export const merchantApiAccount = z.object({
  id: z.string().min(1),
  name: z.string().optional(),
  country: z.string().optional(),
  currency: z.string().optional(),
  mcc: z.string().optional(),
  merchant_id: z.string().optional(),
  descriptor: z.string().optional(),
  _links: halLinks.optional(),
});

/** "One of: retrieval_request, 1st_chargeback, 2nd_chargeback" [S4 footnote 3]. */
export const CLEARHAUS_DISPUTE_TYPES = ["retrieval_request", "1st_chargeback", "2nd_chargeback"] as const;
/** The statuses DQL filters on [S6]; the rels page [S4] enumerates none. */
export const CLEARHAUS_DISPUTE_STATUSES = ["open", "under_review", "refuted", "won", "lost"] as const;

/** The dispute resource [S4]; the example shows every field, the profile marks none optional. */
export const merchantApiDispute = z.object({
  id: z.string().min(1),
  reference: z.string().optional(),
  amount: minorUnits.nonnegative(),
  currency,
  partial: z.boolean(),
  opened_at: calendarDate,
  due_at: calendarDate.nullish(),
  expires_at: calendarDate.nullish(),
  status: z.enum(CLEARHAUS_DISPUTE_STATUSES),
  reason_code: z.string().min(1),
  // Nine reasons are documented [S4 footnote 2]; a new one is carried verbatim rather than refused.
  reason: z.string().min(1),
  type: z.enum(CLEARHAUS_DISPUTE_TYPES),
  _links: halLinks,
});
export type MerchantApiDispute = z.infer<typeof merchantApiDispute>;

export const CLEARHAUS_TRANSACTION_TYPES = ["authorization", "capture", "refund", "credit", "void", "debit"] as const;

/** The transaction resource [S10]: the fields a settlement line needs (the rest is read past). */
export const merchantApiTransaction = z.object({
  id: z.string().min(1),
  type: z.enum(CLEARHAUS_TRANSACTION_TYPES),
  processed_at: z.iso.datetime({ offset: true }),
  amount: minorUnits,
  currency,
  reference: z.string().nullish(),
  settlement: z
    .object({
      amount_gross: minorUnits,
      amount_net: minorUnits,
      fees: minorUnits,
      currency,
    })
    .nullish(),
  _links: halLinks.optional(),
});
export type MerchantApiTransaction = z.infer<typeof merchantApiTransaction>;

/** A cursor-based collection [S11, newer version]: per_page, and `next` until the end. */
export const transactionsPage = z.object({
  per_page: z.number().int().positive().optional(),
  _links: halLinks.optional(),
  _embedded: z.object({ "ch:transactions": z.array(merchantApiTransaction) }).partial().optional(),
});

/** The settlement resource [S7]. */
export const merchantApiSettlement = z.object({
  id: z.string().min(1),
  settled: z.boolean(),
  currency,
  period: z.object({ start_date: calendarDate, end_date: calendarDate }),
  // Whether an open settlement has a payout is not said [S7]: absent or null both read as none.
  payout: z
    .object({
      amount: minorUnits,
      date: calendarDate,
      cancelled_date: calendarDate.nullish(),
      reference_number: z.string().nullish(),
      descriptor: z.string().nullish(),
    })
    .nullish(),
  summary: z.object({
    sales: minorUnits,
    credits: minorUnits,
    refunds: minorUnits,
    chargebacks: minorUnits,
    fees: minorUnits,
    other_postings: minorUnits,
    net: minorUnits,
  }),
  reserve: z
    .object({
      amount: minorUnits,
      date: calendarDate.nullish(),
      cancelled_date: calendarDate.nullish(),
      reference_number: z.string().nullish(),
      descriptor: z.string().nullish(),
    })
    .nullish(),
  // Fourteen kinds are documented (fees.sales ... fees.late_capture [S7]); a kind added later is kept by its name.
  fees: z.record(z.string(), minorUnits).nullish(),
  other_postings: z.array(z.object({ date: calendarDate, text: z.string(), amount: minorUnits })).nullish(),
  _links: halLinks.optional(),
});
export type MerchantApiSettlement = z.infer<typeof merchantApiSettlement>;

/** The file resource [S14]: its `ch:data` links name `upload` and `download`. */
export const merchantApiFile = z.object({
  label: z.string().optional(),
  name: z.string().optional(),
  content_type: z.string().optional(),
  _links: halLinks,
});

/** The token answer the clients read [C2-C5]: access_token and expires_in (seconds). */
export const merchantApiToken = z.object({
  access_token: z.string().min(1),
  expires_in: z.number().positive(),
  token_type: z.string().optional(),
});

/** `body` read through `schema`; anything else is an unreadable answer (never quoting the body). */
export function readAnswer<T extends z.ZodType>(text: string, schema: T, what: string): z.infer<T> {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new ReportingApiError(`Clearhaus Merchant API: ${what} is not JSON`);
  }
  const parsed = schema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new ReportingApiError(`Clearhaus Merchant API: ${what} is not as documented (${issue?.path.join(".") || "body"}: ${issue?.message})`);
  }
  return parsed.data;
}

/** The one link of `relation` (a relation given as an array yields its first). */
export function linkOf(links: HalLinks | undefined, relation: string): HalLink | undefined {
  const found = links?.[relation];
  return Array.isArray(found) ? found[0] : found;
}

/** The link of `relation` named `name`, in a relation given as an array of named links. */
export function namedLink(links: HalLinks | undefined, relation: string, name: string): HalLink | undefined {
  const found = links?.[relation];
  const list = Array.isArray(found) ? found : found ? [found] : [];
  return list.find((link) => link.name === name);
}

export function disputeKindOf(type: MerchantApiDispute["type"]): DisputeKind {
  switch (type) {
    case "retrieval_request":
      return "retrieval-request";
    case "1st_chargeback":
      return "chargeback";
    case "2nd_chargeback":
      return "second-chargeback";
  }
}

/**
 * Clearhaus' statuses as ours. Clearhaus has no "accepted" status in what is published: an accepted
 * dispute reads as whatever it reports next (our sandbox: lost), and our "accepted" is never set here.
 */
export function disputeStatusOf(status: MerchantApiDispute["status"]): DisputeStatus {
  switch (status) {
    case "open":
      return "open";
    case "under_review":
      return "under-review";
    case "refuted":
      return "refuted";
    case "won":
      return "won";
    case "lost":
      return "lost";
  }
}

/** The stamps a dispute offers now ([S4]: `refuted`, `accepted`; "presence depends on status") as our answers. */
export function disputeAnswersOf(links: HalLinks): DisputeDecision[] {
  const answers: DisputeDecision[] = [];
  if (namedLink(links, "ch:stamps", "refuted")) answers.push("refute");
  if (namedLink(links, "ch:stamps", "accepted")) answers.push("accept");
  return answers;
}

/**
 * A dispute in our shape. `transactionId` is the id the dispute's `ch:transaction` resource gives
 * (the client reads it from that link's target: the docs ask clients not to take ids apart from URLs).
 */
export function fromMerchantApiDispute(dispute: MerchantApiDispute, transactionId?: string): AcquirerDispute {
  return {
    disputeId: dispute.id,
    transactionId,
    reference: dispute.reference || undefined,
    kind: disputeKindOf(dispute.type),
    status: disputeStatusOf(dispute.status),
    reasonCode: dispute.reason_code,
    reason: dispute.reason,
    amount: BigInt(dispute.amount),
    currency: dispute.currency,
    partial: dispute.partial,
    openedOn: dispute.opened_at,
    dueOn: dispute.due_at ?? undefined,
    expiresOn: dispute.expires_at ?? undefined,
    answers: disputeAnswersOf(dispute._links),
  };
}

/**
 * A settlement in our shape. `fees.total` (seen only in a client's type [C2], not in the profile) is
 * a sum, not a kind: it is left out so that the kinds add up to summary.fees.
 */
export function fromMerchantApiSettlement(settlement: MerchantApiSettlement): AcquirerSettlement {
  const { summary } = settlement;
  const fees = Object.fromEntries(
    Object.entries(settlement.fees ?? {})
      .filter(([kind]) => kind !== "total")
      .map(([kind, amount]) => [kind, BigInt(amount)]),
  );
  return {
    settlementId: settlement.id,
    settled: settlement.settled,
    currency: settlement.currency,
    periodStart: settlement.period.start_date,
    periodEnd: settlement.period.end_date,
    payout: settlement.payout
      ? {
          amount: BigInt(settlement.payout.amount),
          date: settlement.payout.date,
          reference: settlement.payout.reference_number ?? undefined,
          cancelledOn: settlement.payout.cancelled_date ?? undefined,
        }
      : undefined,
    reserve: settlement.reserve
      ? {
          amount: BigInt(settlement.reserve.amount),
          date: settlement.reserve.date ?? undefined,
          reference: settlement.reserve.reference_number ?? undefined,
        }
      : undefined,
    summary: {
      sales: BigInt(summary.sales),
      credits: BigInt(summary.credits),
      refunds: BigInt(summary.refunds),
      chargebacks: BigInt(summary.chargebacks),
      fees: BigInt(summary.fees),
      otherPostings: BigInt(summary.other_postings),
      net: BigInt(summary.net),
    },
    fees,
    otherPostings: (settlement.other_postings ?? []).map((posting) => ({ date: posting.date, text: posting.text, amount: BigInt(posting.amount) })),
  };
}

/** A transaction of a settlement as our line; `settled` where Clearhaus has its settlement figures [S10 footnote 10]. */
export function fromMerchantApiTransaction(transaction: MerchantApiTransaction): AcquirerSettlementLine {
  return {
    transactionId: transaction.id,
    type: transaction.type,
    reference: transaction.reference || undefined,
    amount: BigInt(transaction.amount),
    currency: transaction.currency,
    processedAt: new Date(transaction.processed_at),
    settled: transaction.settlement
      ? {
          gross: BigInt(transaction.settlement.amount_gross),
          fees: BigInt(transaction.settlement.fees),
          net: BigInt(transaction.settlement.amount_net),
          currency: transaction.settlement.currency,
        }
      : undefined,
  };
}
