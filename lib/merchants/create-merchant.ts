import { DEFAULT_ROUTING } from "../acquirers";
import { db, type Tx } from "../db";
import { newMerchantId } from "../ids";
import { createApiKey } from "../api-keys/create-api-key";
import { createSigningSecret } from "../notifications/signing-secrets";
import { API_KEY_SCOPES, type ApiKeyScope } from "../api-keys/api-key-scopes";
import { config } from "../env";
import type { Mode } from "../mode";

export interface CreateMerchantOptions {
  name: string;
  /** Also create a first API key, of the service's default mode (live in production, test locally). */
  withApiKey?: boolean;
  /** Create a first API key of each of these modes instead (the CLI makes one of each). */
  apiKeyModes?: readonly Mode[];
  /** The first key's scopes; default all (the CLI chooses its own default without payouts). */
  apiKeyScopes?: readonly ApiKeyScope[];
  tx?: Tx;
}

export async function createMerchant({ name, withApiKey = false, apiKeyModes, apiKeyScopes = API_KEY_SCOPES, tx }: CreateMerchantOptions) {
  const modes = apiKeyModes ?? (withApiKey ? [config().defaultMode] : []);
  const run = async (client: Tx) => {
    const merchant = await client.merchant.create({
      data: {
        id: newMerchantId(),
        name,
        // The default processor orders: rule 1 (primary) and rule 2 (secondary).
        routing: {
          create: [
            { rule: 1, processors: [...DEFAULT_ROUTING[1]] },
            { rule: 2, processors: [...DEFAULT_ROUTING[2]] },
          ],
        },
      },
    });
    // The notification signing secrets, one per mode (live first: "the" secret of merchants from
    // before modes had their own); stored sealed, returned here in clear once, for the CLI to print.
    const notificationSecret = await createSigningSecret({ merchantId: merchant.id, mode: "live", tx: client });
    const testNotificationSecret = await createSigningSecret({ merchantId: merchant.id, mode: "test", tx: client });
    const keys: Partial<Record<Mode, Awaited<ReturnType<typeof createApiKey>>>> = {};
    for (const mode of modes) {
      keys[mode] = await createApiKey({ merchantId: merchant.id, name: mode === "test" ? "Test key" : "Live key", scopes: apiKeyScopes, mode, tx: client });
    }
    const first = modes[0] ? keys[modes[0]] : undefined;
    return {
      merchant: { ...merchant, notificationSecret, testNotificationSecret },
      apiKey: first?.apiKey,
      apiKeyRecord: first?.record,
      apiKeys: { test: keys.test?.apiKey, live: keys.live?.apiKey },
    };
  };
  // Two sealed secrets and the keys in one transaction: more than Prisma's default 5 s on a loaded machine.
  return tx ? run(tx) : db().$transaction(run, { timeout: 30_000 });
}
