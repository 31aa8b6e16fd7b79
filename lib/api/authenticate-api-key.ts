// `Authorization: Basic <API_KEY>` (spec 5). Keys are found by their HMAC (lib/api-keys) and the
// digest is compared in constant time; revoked and expired keys are refused like unknown ones.
import { API_KEY_PREFIX, digestsEqual, hashApiKey } from "../api-keys/api-key-secret";
import { db } from "../db";
import { invalidApiKey } from "../errors";

/** lastUsedAt is written at most this often per key, so that busy keys cost no write per request. */
const LAST_USED_RESOLUTION_MS = 60_000;
const MAX_KEY_LENGTH = 200;

export interface AuthenticatedMerchant {
  merchantId: string;
  apiKeyId: string;
}

/**
 * The key from the header. The spec sends the key itself after "Basic"; HTTP clients that build
 * Basic credentials (curl -u KEY:) send base64("KEY:"), which is accepted too.
 */
export function apiKeyFromAuthorization(header: string | null): string | undefined {
  const match = header?.match(/^Basic\s+(\S+)\s*$/i);
  const token = match?.[1];
  if (!token || token.length > MAX_KEY_LENGTH) return undefined;
  if (token.startsWith(API_KEY_PREFIX)) return token;
  const decoded = Buffer.from(token, "base64").toString("utf8");
  const key = decoded.split(":").find((part) => part.startsWith(API_KEY_PREFIX));
  return key;
}

export async function authenticateApiKey({ authorization, now = new Date() }: { authorization: string | null; now?: Date }): Promise<AuthenticatedMerchant> {
  const apiKey = apiKeyFromAuthorization(authorization);
  if (!apiKey) throw invalidApiKey("missing; send Authorization: Basic <API_KEY>");
  const hash = hashApiKey(apiKey);
  const record = await db().apiKey.findUnique({
    where: { hash },
    select: { id: true, merchantId: true, hash: true, revokedAt: true, expiresAt: true, lastUsedAt: true },
  });
  // The index finds the row; the constant-time comparison keeps the check itself free of timing hints.
  if (!record || !digestsEqual(record.hash, hash)) throw invalidApiKey("unknown API key");
  if (record.revokedAt) throw invalidApiKey("the API key is revoked");
  if (record.expiresAt && record.expiresAt <= now) throw invalidApiKey("the API key has expired");
  if (!record.lastUsedAt || now.getTime() - record.lastUsedAt.getTime() > LAST_USED_RESOLUTION_MS) {
    // Not awaited: the request does not wait for bookkeeping, and a lost update costs nothing.
    db()
      .apiKey.updateMany({
        where: { id: record.id, OR: [{ lastUsedAt: null }, { lastUsedAt: { lt: new Date(now.getTime() - LAST_USED_RESOLUTION_MS) } }] },
        data: { lastUsedAt: now },
      })
      .catch((error: unknown) => console.warn(`[merchant-api] could not record lastUsedAt of key ${record.id}: ${String(error)}`));
  }
  return { merchantId: record.merchantId, apiKeyId: record.id };
}
