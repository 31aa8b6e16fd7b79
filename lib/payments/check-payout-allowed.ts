// Before a payout does anything (review 3, M7): it may go only to a card stored from an approved
// cardholder payment of the merchant (not a tokenization, an MIT, a refund or another payout), and
// only within the merchant's payout limits for the currency: per payout, and over any 24 hours
// counting every payout not declined or failed. Called inside the transaction that records the
// payout, under a per-merchant-and-currency lock, so two payouts at once cannot both fit in what is
// left of the day's limit. The limits apply in both modes; the day's total counts the payouts of
// the payout's own mode (test payouts never use up live limits). A refusal is the spec's
// INVALID_PARAMETER naming the field.
import type { Tx } from "../db";
import type { Mode } from "../mode";
import { invalidParameter } from "../errors";
import { formatMinorAmount as formatMinor } from "./format-minor-amount";

const APPROVED_STATUSES = ["AUTHORIZED", "CAPTURED", "REFUNDED"] as const;
const DAY_MS = 24 * 60 * 60 * 1000;

export async function checkPayoutAllowed({
  tx,
  merchantId,
  mode,
  source,
  amount,
  currency,
  now = new Date(),
}: {
  tx: Tx;
  merchantId: string;
  mode: Mode;
  source: { paymentType: string; status: string };
  amount: bigint;
  currency: string;
  now?: Date;
}): Promise<void> {
  if (source.paymentType !== "cit" || !(APPROVED_STATUSES as readonly string[]).includes(source.status)) {
    throw invalidParameter("paymentid", "a payout goes only to the card of an approved cardholder payment");
  }
  await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtextextended(${`payout-limit:${merchantId}:${mode}:${currency}`}, 0))`;
  const limit = await tx.payoutLimit.findUnique({ where: { merchantId_currency: { merchantId, currency } }, select: { perPayout: true, perDay: true } });
  if (!limit) throw invalidParameter("currency", `no payout limit is set for ${currency}: an owner sets one in the back office (Settings → Payouts)`);
  if (amount > limit.perPayout) throw invalidParameter("amount", `over the payout limit of ${formatMinor(limit.perPayout, currency)} per payout`);
  const { _sum } = await tx.payment.aggregate({
    where: { merchantId, mode, paymentType: "payout", currency, createdAt: { gt: new Date(now.getTime() - DAY_MS) }, status: { notIn: ["DECLINED", "FAILED"] } },
    _sum: { amount: true },
  });
  const paidToday = _sum.amount ?? 0n;
  if (paidToday + amount > limit.perDay) {
    throw invalidParameter("amount", `over the payout limit of ${formatMinor(limit.perDay, currency)} per 24 hours (${formatMinor(paidToday, currency)} paid out already)`);
  }
}
