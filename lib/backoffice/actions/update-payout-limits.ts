// Settings → Payouts: an owner sets, per currency, what the merchant's API keys may pay out per payout
// and per 24 hours (review 3, M7). Amounts are typed in major units (12.50); the password is asked
// again (step-up): a higher limit lets a leaked key move more money out.
import { z } from "zod";
import { assertCan } from "../../auth/actor";
import { confirmIdentity } from "../../auth/confirm-identity";
import { setPayoutLimit } from "../../payments/set-payout-limit";
import { toMinorUnits } from "./operate-on-payment";
import type { StepUpRequest } from "./step-up-request";

const majorAmount = z
  .string()
  .trim()
  .regex(/^\d{1,12}(\.\d{1,4})?$/, "Enter an amount such as 5000 or 12.50");

export const updatePayoutLimitInput = z.object({
  currency: z.string().trim().toUpperCase().regex(/^[A-Z]{3}$/, "Use an ISO 4217 code such as DKK"),
  perPayout: majorAmount,
  perDay: majorAmount,
});

export async function updatePayoutLimits({ actor, input, ipAddress = null }: StepUpRequest) {
  assertCan(actor, "secrets:manage");
  const { currency, perPayout, perDay } = updatePayoutLimitInput.parse(input);
  await confirmIdentity({ userId: actor.userId, input, ipAddress });
  return setPayoutLimit({
    merchantId: actor.merchantId,
    actorUserId: actor.userId,
    input: { currency, perPayout: toMinorUnits(perPayout, currency), perDay: toMinorUnits(perDay, currency) },
  });
}
