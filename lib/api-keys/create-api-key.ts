import { db, type Tx } from "../db";
import { newId } from "../ids";
import { generateApiKey, hashApiKey, visiblePrefix } from "./api-key-secret";
import { recordAuditEntry } from "../backoffice/audit";

export interface CreateApiKeyOptions {
  merchantId: string;
  name: string;
  /** The back-office user who asked for it, for the audit log. */
  actorUserId?: string | null;
  tx?: Tx;
}

/** Creates an API key. The full key is in the result only: it is never stored or shown again. */
export async function createApiKey({ merchantId, name, actorUserId = null, tx }: CreateApiKeyOptions) {
  const apiKey = generateApiKey();
  const client = tx ?? db();
  const record = await client.apiKey.create({
    data: { id: newId(), merchantId, name, prefix: visiblePrefix(apiKey), hash: hashApiKey(apiKey) },
    select: { id: true, merchantId: true, name: true, prefix: true, createdAt: true },
  });
  await recordAuditEntry(client, {
    merchantId,
    userId: actorUserId,
    action: "api_key.created",
    target: record.id,
    details: { name, prefix: record.prefix },
  });
  return { apiKey, record };
}
