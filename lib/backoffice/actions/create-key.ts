import { z } from "zod";
import { db } from "../../db";
import { assertCan, type Actor } from "../../auth/actor";
import { createApiKey } from "../../api-keys/create-api-key";
import { confirmIdentity } from "../../auth/confirm-identity";

export const createKeyInput = z.object({
  name: z.string().trim().min(1, "Give the key a name, for example the system that will use it").max(80, "Use at most 80 characters"),
});

/** Creates an API key for the actor's merchant; the full key is returned once. Asks for the password again (step-up). */
export async function createKey({ actor, input }: { actor: Actor; input: unknown }) {
  assertCan(actor, "keys:write");
  const { name } = createKeyInput.parse(input);
  await confirmIdentity({ userId: actor.userId, input });
  return db().$transaction((tx) => createApiKey({ merchantId: actor.merchantId, name, actorUserId: actor.userId, tx }));
}
