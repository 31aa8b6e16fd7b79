import { z } from "zod";
import { db } from "../../db";
import { assertCan, type Actor } from "../../auth/actor";
import { createApiKey } from "../../api-keys/create-api-key";
import { confirmIdentity } from "../../auth/confirm-identity";
import { apiKeyScopesSchema, DEFAULT_NEW_KEY_SCOPES } from "../../api-keys/api-key-scopes";

export const createKeyInput = z.object({
  name: z.string().trim().min(1, "Give the key a name, for example the system that will use it").max(80, "Use at most 80 characters"),
  /** The form's checkboxes (every checked value; none checked is refused). Absent: the default (no payouts). */
  scopes: z.preprocess((value) => (value === undefined ? [...DEFAULT_NEW_KEY_SCOPES] : Array.isArray(value) ? value : [value]), apiKeyScopesSchema),
});

/** Creates an API key of the mode the back office shows; the full key is returned once. Asks for the password again (step-up). */
export async function createKey({ actor, input }: { actor: Actor; input: unknown }) {
  assertCan(actor, "keys:write");
  const { name, scopes } = createKeyInput.parse(input);
  await confirmIdentity({ userId: actor.userId, input });
  return db().$transaction((tx) => createApiKey({ merchantId: actor.merchantId, name, scopes, mode: actor.mode, actorUserId: actor.userId, tx }));
}
