// `Authorization: Basic <API_KEY>` (spec 5). Keys are found by their HMAC (lib/api-keys) and the
// digest is compared in constant time; revoked and expired keys are refused like unknown ones.
import { API_KEY_PREFIX, digestsEqual, hashApiKey } from "../api-keys/api-key-secret";
import { db } from "../db";
import { SettingsCache, settingsGeneration } from "../db/settings-cache";
import { config } from "../env";
import { invalidApiKey } from "../errors";
import { log } from "../observability/logger";
import type { ApiKeyScope } from "../api-keys/api-key-scopes";
import type { Mode } from "../mode";

/** lastUsedAt is written at most this often per key, so that busy keys cost no write per request. */
const LAST_USED_RESOLUTION_MS = 60_000;
const API_KEY_CACHE_MAX = 10_000;
const MAX_KEY_LENGTH = 200;

export interface AuthenticatedMerchant {
  merchantId: string;
  apiKeyId: string;
  /** The key's mode: the request sees and makes only data of this mode. */
  mode: Mode;
}

/** What the routes need (api-key-scopes.ts), with the words a refusal uses. */
const SCOPE_VERBS: Record<ApiKeyScope, string> = {
  payments: "start payments",
  "follow-ups": "capture, refund or void",
  payouts: "make payouts",
  read: "read payments and disputes",
  disputes: "answer disputes (evidence, refute, accept)",
};

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

interface KeyRecord {
  id: string;
  merchantId: string;
  hash: string;
  revokedAt: Date | null;
  expiresAt: Date | null;
  lastUsedAt: Date | null;
  scopes: string[];
  mode: Mode;
}

/**
 * Keys found in the database, by hash, kept in this process until any process changes a key
 * (lib/db/settings-cache.ts: a revocation anywhere is seen here as soon as PostgreSQL's notification
 * arrives), so that a busy merchant costs no key lookup per request. Expiry is checked on every
 * request against the cached expiresAt.
 */
const cache = ((globalThis as unknown as { __cpsApiKeyCache?: SettingsCache<KeyRecord | null> }).__cpsApiKeyCache ??= new SettingsCache(
  API_KEY_CACHE_MAX,
));

function findKey(hash: string): Promise<KeyRecord | null> {
  return cache.get(
    hash,
    () =>
      db().apiKey.findUnique({
        where: { hash },
        select: { id: true, merchantId: true, hash: true, revokedAt: true, expiresAt: true, lastUsedAt: true, scopes: true, mode: true },
      }),
    // Unknown keys are not cached: a flood of random keys must not fill the memory.
    (record) => record !== null,
  );
}

/**
 * The HMAC of each key that named a stored key, by the key as sent (decision 0221). Making an HMAC
 * object per request cost the web process 1.5% to 2.5% of its CPU per initdynamic in a profile at
 * 50 connections (docs/performance.md); this is a pure function of the key and the secret, kept only
 * for keys the database knows (a flood of random keys adds nothing), only while the settings cache
 * may cache (the same generation: any change to keys, accounts or addresses drops it, so a deleted
 * key is not held for long), and only for the secret it was made with.
 */
interface KnownHashes {
  generation: number | undefined;
  secret: string;
  hashes: Map<string, string>;
}
const known = ((globalThis as unknown as { __cpsApiKeyHashes?: KnownHashes }).__cpsApiKeyHashes ??= {
  generation: undefined,
  secret: "",
  hashes: new Map(),
});

/** How many key hashes this process keeps (tests: an unknown key is never kept). */
export function knownApiKeyHashCount(): number {
  return known.hashes.size;
}

/** Forgets cached keys in this process (the back office after a revocation, before its notification arrives). */
export function clearApiKeyCache(): void {
  cache.clear();
  known.hashes.clear();
}

export async function authenticateApiKey({
  authorization,
  scope,
  now = new Date(),
}: {
  authorization: string | null;
  /** The scope the route needs (review 3, M7); a key without it is refused like a wrong key, saying why. */
  scope?: ApiKeyScope;
  now?: Date;
}): Promise<AuthenticatedMerchant> {
  if (!authorization?.trim()) throw invalidApiKey("missing; send Authorization: Basic <API_KEY>");
  const apiKey = apiKeyFromAuthorization(authorization);
  if (!apiKey) throw invalidApiKey("unknown API key (send Authorization: Basic <API_KEY>)");
  const generation = settingsGeneration();
  const secret = config().secrets.apiKeySecret;
  if (known.generation !== generation || known.secret !== secret) {
    known.hashes.clear();
    known.generation = generation;
    known.secret = secret;
  }
  const kept = generation === undefined ? undefined : known.hashes.get(apiKey);
  const hash = kept ?? hashApiKey(apiKey);
  const record = await findKey(hash);
  if (!record || !digestsEqual(record.hash, hash)) throw invalidApiKey("unknown API key");
  // Kept only when no change was notified while the key was looked up (the generation still holds).
  if (kept === undefined && generation !== undefined && known.generation === generation && settingsGeneration() === generation) {
    if (known.hashes.size >= API_KEY_CACHE_MAX) known.hashes.clear();
    known.hashes.set(apiKey, hash);
  }
  if (record.revokedAt) throw invalidApiKey("the API key is revoked");
  if (record.expiresAt && record.expiresAt <= now) throw invalidApiKey("the API key has expired");
  if (scope && !record.scopes.includes(scope)) {
    throw invalidApiKey(`this API key may not ${SCOPE_VERBS[scope]} (its scopes: ${record.scopes.join(", ") || "none"}); use a key with the ${scope} scope`);
  }
  if (!record.lastUsedAt || now.getTime() - record.lastUsedAt.getTime() > LAST_USED_RESOLUTION_MS) {
    record.lastUsedAt = now; // also in the cached copy: one write per resolution period
    // Not awaited: the request does not wait for bookkeeping, and a lost update costs nothing.
    db()
      .apiKey.updateMany({
        where: { id: record.id, OR: [{ lastUsedAt: null }, { lastUsedAt: { lt: new Date(now.getTime() - LAST_USED_RESOLUTION_MS) } }] },
        data: { lastUsedAt: now },
      })
      .catch((error: unknown) => log("merchant-api").warn(`could not record lastUsedAt of key ${record.id}: ${String(error)}`));
  }
  return { merchantId: record.merchantId, apiKeyId: record.id, mode: record.mode };
}
