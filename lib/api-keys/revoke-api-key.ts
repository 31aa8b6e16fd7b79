import { db, type Tx } from "../db";
import { recordAuditEntry } from "../audit/audit";
import type { Mode } from "../mode";

export class ApiKeyNotFoundError extends Error {
  constructor() {
    super("API key not found");
    this.name = "ApiKeyNotFoundError";
  }
}

export interface RevokeApiKeyOptions {
  merchantId: string;
  /** The mode the key must be of: a key of the other mode looks like an unknown one. */
  mode: Mode;
  apiKeyId: string;
  actorUserId?: string | null;
  tx?: Tx;
}

/** Revokes a key at once: the API refuses it from now on. Revoking a revoked key changes nothing. */
export async function revokeApiKey({ merchantId, mode, apiKeyId, actorUserId = null, tx }: RevokeApiKeyOptions) {
  const run = async (client: Tx) => {
    // Scoped by merchant: another merchant's key id looks exactly like an unknown one.
    const key = await client.apiKey.findFirst({
      where: { id: apiKeyId, merchantId, mode },
      select: { id: true, prefix: true, name: true, revokedAt: true },
    });
    if (!key) throw new ApiKeyNotFoundError();
    if (key.revokedAt) return { id: key.id, revokedAt: key.revokedAt };
    const revokedAt = new Date();
    await client.apiKey.update({ where: { id: key.id }, data: { revokedAt }, select: { id: true } });
    await recordAuditEntry(client, {
      merchantId,
      userId: actorUserId,
      action: "api_key.revoked",
      target: key.id,
      details: { name: key.name, prefix: key.prefix },
    });
    return { id: key.id, revokedAt };
  };
  return tx ? run(tx) : db().$transaction(run);
}
