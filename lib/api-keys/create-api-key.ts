import { db, type Tx } from "../db";
import { newId } from "../ids";
import { generateApiKey, hashApiKey, visiblePrefix } from "./api-key-secret";
import { recordAuditEntry } from "../audit/audit";
import type { ApiKeyScope } from "./api-key-scopes";
import type { Mode } from "../mode";

export interface CreateApiKeyOptions {
  merchantId: string;
  name: string;
  /** What the key may do (chosen by whoever makes it; see api-key-scopes.ts). */
  scopes: readonly ApiKeyScope[];
  /** What the key makes belongs to this mode, and it sees nothing of the other. */
  mode: Mode;
  /** The back-office user who asked for it, for the audit log (null: the operator CLI). */
  actorUserId?: string | null;
  tx?: Tx;
}

/** Creates an API key. The full key is in the result only: it is never stored or shown again. */
export async function createApiKey({ merchantId, name, scopes, mode, actorUserId = null, tx }: CreateApiKeyOptions) {
  const apiKey = generateApiKey(mode);
  const client = tx ?? db();
  const record = await client.apiKey.create({
    data: { id: newId(), merchantId, name, prefix: visiblePrefix(apiKey), hash: hashApiKey(apiKey), scopes: [...scopes], mode },
    select: { id: true, merchantId: true, name: true, prefix: true, scopes: true, mode: true, createdAt: true },
  });
  await recordAuditEntry(client, {
    merchantId,
    userId: actorUserId,
    action: "api_key.created",
    target: record.id,
    details: { name, prefix: record.prefix, scopes: [...scopes], mode },
  });
  return { apiKey, record };
}
