// Saves the merchant's allowed checkout origins: the pages that may embed its hosted fields
// (security item 8). An empty list means any page, as before lists existed; a hostedid with its own
// list uses that one instead (lib/cardholder/allowed-checkout-origins.ts).
import { z } from "zod";
import { assertCan } from "../../auth/actor";
import { db } from "../../db";
import { config } from "../../env";
import { checkoutOriginsSchema } from "../../validation/checkout-origins";
import { recordAudit } from "../../audit/audit";
import { confirmIdentity } from "../../auth/confirm-identity";
import type { StepUpRequest } from "./step-up-request";

/** Asks for the password again (step-up): a wider list lets more pages frame the card fields (review 3, M3). */
export async function updateCheckoutOrigins({ actor, input, ipAddress = null }: StepUpRequest): Promise<string[]> {
  // The origins serve both modes' checkouts: a change counts as acting in live mode.
  assertCan({ ...actor, mode: "live" }, "settings:write");
  const { allowedCheckoutOrigins } = z
    .object({ allowedCheckoutOrigins: checkoutOriginsSchema({ allowHttp: !config().isProduction }) })
    .parse(input);
  await confirmIdentity({ userId: actor.userId, input, ipAddress });
  return db().$transaction(async (tx) => {
    const before = await tx.merchant.findUniqueOrThrow({ where: { id: actor.merchantId }, select: { allowedCheckoutOrigins: true } });
    await tx.merchant.update({ where: { id: actor.merchantId }, data: { allowedCheckoutOrigins }, select: { id: true } });
    await recordAudit(tx, {
      actor,
      action: "settings.checkout_origins.updated",
      target: actor.merchantId,
      details: { before: before.allowedCheckoutOrigins, after: allowedCheckoutOrigins },
    });
    return allowedCheckoutOrigins;
  });
}
