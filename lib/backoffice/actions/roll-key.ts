import { z } from "zod";
import { assertCan, type Actor } from "../../auth/actor";
import { clearApiKeyCache } from "../../api/authenticate-api-key";
import { graceSecondsSchema, rollApiKey } from "../../api-keys/roll-api-key";
import { confirmIdentity } from "../../auth/confirm-identity";

export const rollKeyInput = z.object({ apiKeyId: z.string().min(1).max(64), graceSeconds: graceSecondsSchema });

/** Rolls one of the actor's merchant's keys; the old key keeps working for the grace period. Asks for the password again (step-up). */
export async function rollKey({ actor, input }: { actor: Actor; input: unknown }) {
  assertCan(actor, "keys:write");
  const { apiKeyId, graceSeconds } = rollKeyInput.parse(input);
  await confirmIdentity({ userId: actor.userId, input });
  const result = await rollApiKey({ merchantId: actor.merchantId, mode: actor.mode, apiKeyId, graceSeconds, actorUserId: actor.userId });
  // The API keeps keys it checked for 2 s; this process (the back office runs in the API's process)
  // forgets them now, so the change applies to the next request here.
  clearApiKeyCache();
  return result;
}
