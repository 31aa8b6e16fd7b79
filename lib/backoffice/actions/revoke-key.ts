import { z } from "zod";
import { assertCan, type Actor } from "../../auth/actor";
import { revokeApiKey } from "../../api-keys/revoke-api-key";

export const revokeKeyInput = z.object({ apiKeyId: z.string().min(1).max(64) });

export async function revokeKey({ actor, input }: { actor: Actor; input: unknown }) {
  assertCan(actor, "keys:write");
  const { apiKeyId } = revokeKeyInput.parse(input);
  return revokeApiKey({ merchantId: actor.merchantId, apiKeyId, actorUserId: actor.userId });
}
