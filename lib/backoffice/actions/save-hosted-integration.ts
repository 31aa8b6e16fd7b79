// Creates or updates a hosted integration (`hostedid`): its own notification URLs, the styling
// of its hosted fields, validated by the hosted fields' own schema (lib/validation/hosted-styling.ts),
// the checkout origins allowed to embed them (lib/validation/checkout-origins.ts) and the 3-D Secure
// challenge preference its AReqs carry (lib/validation/challenge-preference.ts).
import { z } from "zod";
import { assertCan, NotFoundError } from "../../auth/actor";
import { db } from "../../db";
import { config } from "../../env";
import { Prisma } from "../../generated/prisma/client";
import { newId } from "../../ids";
import { hostedStylingSchema } from "../../validation/hosted-styling";
import { checkoutOriginsSchema } from "../../validation/checkout-origins";
import { challengePreferenceSchema } from "../../validation/challenge-preference";
import { recordAudit } from "../../audit/audit";
import { UserFacingError } from "../action-result";
import { notificationUrlSchema } from "../notification-url";
import { confirmIdentity } from "../../auth/confirm-identity";
import { addressColumns } from "../../notifications/resolve-notification-url";
import { assertFormMode } from "../form-mode";
import type { StepUpRequest } from "./step-up-request";

/** Styling arrives as the editor's JSON text; its issues are reported under `styling.<path>`. */
const stylingJson = z.string().transform((text, context) => {
  try {
    return JSON.parse(text || "{}") as unknown;
  } catch {
    context.addIssue({ code: "custom", message: "Styling is not valid JSON" });
    return z.NEVER;
  }
});

export function hostedIntegrationInput(options: { allowHttp: boolean }) {
  const url = notificationUrlSchema(options);
  return z.object({
    id: z
      .string()
      .max(64)
      .optional()
      .transform((value) => value || undefined),
    hostedId: z
      .string()
      .trim()
      .regex(/^[A-Za-z0-9_-]{1,64}$/, "Use 1 to 64 letters, digits, - or _ (it is sent as hostedid)"),
    name: z.string().trim().min(1, "Give the integration a name").max(100, "Use at most 100 characters"),
    defaultNotificationUrl: url,
    completionNotificationUrl: url,
    lifecycleNotificationUrl: url,
    styling: stylingJson.pipe(hostedStylingSchema),
    /** Empty: the merchant's list applies (or, without one, any page). */
    allowedCheckoutOrigins: checkoutOriginsSchema(options),
    /** The threeDSRequestorChallengeInd of this integration's AReqs; absent: unchanged (a new one: no preference). */
    threeDsChallengePreference: z.preprocess((value) => value || undefined, challengePreferenceSchema.optional()),
  });
}

/**
 * Step-up like the merchant's own addresses and origins: an integration has both (review 3, M3). The
 * integration serves both modes; the addresses saved are the shown mode's (test mode has its own).
 */
export async function saveHostedIntegration({ actor, input, ipAddress = null }: StepUpRequest) {
  // Its styling, origins and hostedid serve live checkouts too: a change counts as acting in live mode.
  assertCan({ ...actor, mode: "live" }, "settings:write");
  assertFormMode(actor, input);
  const { id, styling, defaultNotificationUrl, completionNotificationUrl, lifecycleNotificationUrl, ...shared } = hostedIntegrationInput({
    allowHttp: !config().isProduction,
  }).parse(input);
  const addresses = { defaultNotificationUrl, completionNotificationUrl, lifecycleNotificationUrl };
  const fields = { ...shared, ...addressColumns(addresses, actor.mode) };
  const audited = { ...shared, mode: actor.mode, ...addresses, styling };
  await confirmIdentity({ userId: actor.userId, input, ipAddress });
  try {
    return await db().$transaction(async (tx) => {
      if (id) {
        const existing = await tx.hostedIntegration.findFirst({ where: { id, merchantId: actor.merchantId }, select: { id: true } });
        if (!existing) throw new NotFoundError("Hosted integration");
        const saved = await tx.hostedIntegration.update({
          where: { id },
          data: { ...fields, styling },
          select: { id: true, hostedId: true },
        });
        await recordAudit(tx, { actor, action: "hosted_integration.updated", target: id, details: audited });
        return saved;
      }
      const saved = await tx.hostedIntegration.create({
        data: { id: newId(), merchantId: actor.merchantId, ...fields, styling },
        select: { id: true, hostedId: true },
      });
      await recordAudit(tx, { actor, action: "hosted_integration.created", target: saved.id, details: audited });
      return saved;
    });
  } catch (error) {
    if (error instanceof Prisma.PrismaClientKnownRequestError && error.code === "P2002")
      throw new UserFacingError(`The hostedid “${fields.hostedId}” is already used by another integration.`);
    throw error;
  }
}
