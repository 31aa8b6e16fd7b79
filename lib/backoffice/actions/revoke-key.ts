import { z } from "zod";
import { assertCan, type Actor } from "../../auth/actor";
import { clearApiKeyCache } from "../../api/authenticate-api-key";
import { revokeApiKey } from "../../api-keys/revoke-api-key";

export const revokeKeyInput = z.object({ apiKeyId: z.string().min(1).max(64) });

export async function revokeKey({ actor, input }: { actor: Actor; input: unknown }) {
  assertCan(actor, "keys:write");
  const { apiKeyId } = revokeKeyInput.parse(input);
  const result = await revokeApiKey({ merchantId: actor.merchantId, mode: actor.mode, apiKeyId, actorUserId: actor.userId });
  // The API keeps keys it checked for 2 s; this process (the back office runs in the API's process)
  // forgets them now, so the change applies to the next request here.
  clearApiKeyCache();
  return result;
}
