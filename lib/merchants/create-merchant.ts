import { randomBytes } from "node:crypto";
import { db, type Tx } from "../db";
import { newMerchantId } from "../ids";
import { createApiKey } from "../api-keys/create-api-key";

export interface CreateMerchantOptions {
  name: string;
  /** Also create a first API key (the CLI and the demo seed do). */
  withApiKey?: boolean;
  tx?: Tx;
}

/** Default processor orders of a new merchant: rule 1 (primary) and rule 2 (secondary). */
export const DEFAULT_ROUTING = {
  1: ["finaro", "clearhaus", "bambora"],
  2: ["bambora", "clearhaus", "finaro"],
} as const;

export function newNotificationSecret(): string {
  return `whsec_${randomBytes(24).toString("base64")}`;
}

export async function createMerchant({ name, withApiKey = false, tx }: CreateMerchantOptions) {
  const run = async (client: Tx) => {
    const merchant = await client.merchant.create({
      data: {
        id: newMerchantId(),
        name,
        notificationSecret: newNotificationSecret(),
        routing: {
          create: [
            { rule: 1, processors: [...DEFAULT_ROUTING[1]] },
            { rule: 2, processors: [...DEFAULT_ROUTING[2]] },
          ],
        },
      },
    });
    const key = withApiKey ? await createApiKey({ merchantId: merchant.id, name: "Default key", tx: client }) : undefined;
    return { merchant, apiKey: key?.apiKey, apiKeyRecord: key?.record };
  };
  return tx ? run(tx) : db().$transaction(run);
}
