// Rolling the notification signing secret (review 3, M3): an owner, after confirming their password,
// gets a new secret that signs every notification from now on; the old one signs as well for the
// chosen overlap (0 to 24 hours, Stripe's rolling), so the merchant can deploy the new secret to its
// receiver without refusing a single notification. The new secret is shown once here, and stays
// revealable; the roll is audited. It rolls the secret of the mode the back office shows; the other
// mode's secret is left alone (security review 4, M1).
import { z } from "zod";
import { assertCan } from "../../auth/actor";
import { confirmIdentity } from "../../auth/confirm-identity";
import { db } from "../../db";
import { MAX_SIGNING_SECRET_OVERLAP_SECONDS, rollSigningSecretRows } from "../../notifications/signing-secrets";
import { recordAudit } from "../../audit/audit";
import type { StepUpRequest } from "./step-up-request";

/** The overlaps the form offers (seconds). */
export const SIGNING_SECRET_OVERLAPS = [
  { seconds: 0, label: "Now (the old secret stops signing at once)" },
  { seconds: 60 * 60, label: "In 1 hour" },
  { seconds: 12 * 60 * 60, label: "In 12 hours" },
  { seconds: 24 * 60 * 60, label: "In 24 hours" },
] as const;

export const rollSigningSecretInput = z.object({
  overlapSeconds: z.coerce
    .number({ error: "Choose when the old secret stops signing" })
    .int()
    .min(0, "Choose when the old secret stops signing")
    .max(MAX_SIGNING_SECRET_OVERLAP_SECONDS, "The old secret may sign for at most 24 hours"),
});

export async function rollSigningSecret({ actor, input, ipAddress = null }: StepUpRequest) {
  assertCan(actor, "secrets:manage");
  const { overlapSeconds } = rollSigningSecretInput.parse(input);
  await confirmIdentity({ userId: actor.userId, input, ipAddress });
  return db().$transaction(async (tx) => {
    const rolled = await rollSigningSecretRows({ merchantId: actor.merchantId, mode: actor.mode, overlapSeconds, tx });
    await recordAudit(tx, {
      actor,
      action: "secret.rolled",
      target: actor.merchantId,
      details: {
        secret: `notification signing secret (${actor.mode} mode)`,
        mode: actor.mode,
        overlapSeconds,
        previousValidUntil: rolled.previousValidUntil.toISOString(),
        ip: ipAddress ?? "unknown",
      },
    });
    return rolled;
  });
}
