// Sets what a merchant's API keys may pay out in one currency (review 3, M7): per payout and over any
// 24 hours, in minor units. Called by the back office (owners, after step-up) and the operator CLI;
// audited with the values before and after.
import { z } from "zod";
import { recordAuditEntry } from "../audit/audit";
import { db } from "../db";
import { isCurrencyCode } from "../validation/currency";

const minorUnits = z.coerce.bigint({ error: "Enter a whole number of minor units" }).min(0n, "Enter 0 or more").max(10n ** 12n, "That is more than any payout can be");

export const payoutLimitInput = z
  .object({
    currency: z
      .string()
      .trim()
      .toUpperCase()
      .refine((code) => isCurrencyCode(code), "Use an ISO 4217 currency code such as DKK"),
    perPayout: minorUnits,
    perDay: minorUnits,
  })
  .refine((limit) => limit.perDay >= limit.perPayout, { path: ["perDay"], message: "The daily limit must be at least the limit per payout" });

export type PayoutLimitInput = z.input<typeof payoutLimitInput>;

export async function setPayoutLimit({ merchantId, actorUserId, input }: { merchantId: string; actorUserId: string | null; input: unknown }) {
  const { currency, perPayout, perDay } = payoutLimitInput.parse(input);
  return db().$transaction(async (tx) => {
    const before = await tx.payoutLimit.findUnique({ where: { merchantId_currency: { merchantId, currency } }, select: { perPayout: true, perDay: true } });
    const saved = await tx.payoutLimit.upsert({
      where: { merchantId_currency: { merchantId, currency } },
      create: { merchantId, currency, perPayout, perDay },
      update: { perPayout, perDay },
      select: { currency: true, perPayout: true, perDay: true },
    });
    await recordAuditEntry(tx, {
      merchantId,
      userId: actorUserId,
      action: "settings.payout_limits.updated",
      target: currency,
      details: {
        currency,
        before: before ? { perPayout: before.perPayout.toString(), perDay: before.perDay.toString() } : null,
        after: { perPayout: perPayout.toString(), perDay: perDay.toString() },
      },
    });
    return saved;
  });
}
