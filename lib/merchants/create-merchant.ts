import { db, type Tx } from "../db";
import { newMerchantId } from "../ids";
import { createApiKey } from "../api-keys/create-api-key";
import { createSigningSecret } from "../notifications/signing-secrets";
import { API_KEY_SCOPES, type ApiKeyScope } from "../api-keys/api-key-scopes";

export interface CreateMerchantOptions {
  name: string;
  /** Also create a first API key (the CLI and the demo seed do). */
  withApiKey?: boolean;
  /** The first key's scopes; default all (the CLI chooses its own default without payouts). */
  apiKeyScopes?: readonly ApiKeyScope[];
  tx?: Tx;
}

/** Default processor orders of a new merchant: rule 1 (primary) and rule 2 (secondary). */
export const DEFAULT_ROUTING = {
  1: ["finaro", "clearhaus", "bambora"],
  2: ["bambora", "clearhaus", "finaro"],
} as const;

export async function createMerchant({ name, withApiKey = false, apiKeyScopes = API_KEY_SCOPES, tx }: CreateMerchantOptions) {
  const run = async (client: Tx) => {
    const merchant = await client.merchant.create({
      data: {
        id: newMerchantId(),
        name,
        routing: {
          create: [
            { rule: 1, processors: [...DEFAULT_ROUTING[1]] },
            { rule: 2, processors: [...DEFAULT_ROUTING[2]] },
          ],
        },
      },
    });
    // The notification signing secret: stored sealed; returned here in clear once, for the CLI to print.
    const notificationSecret = await createSigningSecret({ merchantId: merchant.id, tx: client });
    const key = withApiKey ? await createApiKey({ merchantId: merchant.id, name: "Default key", scopes: apiKeyScopes, tx: client }) : undefined;
    return { merchant: { ...merchant, notificationSecret }, apiKey: key?.apiKey, apiKeyRecord: key?.record };
  };
  return tx ? run(tx) : db().$transaction(run);
}
