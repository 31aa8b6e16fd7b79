// Secrets that are not card data but are kept encrypted under the card-data key's protection: each
// purpose gets its own AES-256-GCM key, derived with HKDF-SHA256 from the configured card-data key
// and a label, so a sealed secret is never "a card number" to the card code and one purpose's
// ciphertext cannot be opened as another's. The card key's id and a caller-chosen binding (the user
// or row it belongs to) are authenticated with it, so a sealed value cannot be moved to another row.
// Form: "<prefix>:<card key id>:<base64 iv|tag|ciphertext>". Card-key rotation keeps working: the
// previous keys in CARD_DATA_PREVIOUS_KEYS derive their keys too.
import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from "node:crypto";
import { cardKeyMaterial } from "./card-encryption";

const IV_BYTES = 12;
const TAG_BYTES = 16;

export interface SealPurpose {
  /** Stored in front of the value, e.g. "totp1". */
  prefix: string;
  /** The HKDF label, e.g. "card-payment-service/totp-secret/v1". */
  label: string;
}

const derived = new WeakMap<Buffer, Map<string, Buffer>>();

/**
 * The purpose's key derived from the card-data key `keyId` (the current one when undefined), derived
 * once per process and key: HKDF on every open showed in the worker's profile (docs/performance.md).
 */
export function purposeKey(purpose: SealPurpose, keyId: string | undefined): { id: string; key: Buffer } {
  const cardKey = cardKeyMaterial(keyId);
  // Keyed by the card key's object (parsed once per configured value, card-encryption.ts) and the label.
  let byLabel = derived.get(cardKey.key);
  if (!byLabel) derived.set(cardKey.key, (byLabel = new Map()));
  let key = byLabel.get(purpose.label);
  if (!key) {
    key = Buffer.from(hkdfSync("sha256", cardKey.key, Buffer.alloc(0), purpose.label, 32));
    byLabel.set(purpose.label, key);
  }
  return { id: cardKey.id, key };
}

/** Seals `secret` for `purpose`, bound to `boundTo`, under the current card-data key. */
export function sealSecret(purpose: SealPurpose, secret: string, boundTo: string): string {
  const { id, key } = purposeKey(purpose, undefined);
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv("aes-256-gcm", key, iv);
  cipher.setAAD(Buffer.from(`${purpose.prefix}:${id}:${boundTo}`));
  const ciphertext = Buffer.concat([cipher.update(secret, "utf8"), cipher.final()]);
  return `${purpose.prefix}:${id}:${Buffer.concat([iv, cipher.getAuthTag(), ciphertext]).toString("base64")}`;
}

/** Whether `value` was sealed for `purpose` (under any card key). */
export function isSealedFor(purpose: SealPurpose, value: string): boolean {
  return value.startsWith(`${purpose.prefix}:`);
}

/** The card key id `value` was sealed under. */
export function sealedKeyId(value: string): string {
  return value.split(":")[1] ?? "";
}

/** Opens a value sealed by `sealSecret` with the same purpose and binding; throws when it was altered or moved. */
export function openSecret(purpose: SealPurpose, sealed: string, boundTo: string): string {
  const [, keyId = "", payload = ""] = sealed.split(":");
  const { key } = purposeKey(purpose, keyId);
  const aad = `${purpose.prefix}:${keyId}:${boundTo}`;
  return openedOnce(key, `${aad}\n${payload}`, () => {
    const raw = Buffer.from(payload, "base64");
    const decipher = createDecipheriv("aes-256-gcm", key, raw.subarray(0, IV_BYTES));
    decipher.setAAD(Buffer.from(aad));
    decipher.setAuthTag(raw.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
    return Buffer.concat([decipher.update(raw.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]).toString("utf8");
  });
}

/** Opened values a process keeps at most per purpose key; the oldest goes first. */
const OPENED_LIMIT = 1_000;
const openedBy = new WeakMap<Buffer, Map<string, unknown>>();

/**
 * `open()`'s result for a sealed value opened before with the same key: a process opens the same few
 * values over and over (the acquirer account's credentials and the merchant's signing secret on every
 * capture: an AES-GCM context, a parse and a validation each time, 3.9% of the worker's busy time at
 * 100 captures a second, docs/performance.md). `key` is the purpose key's own object, so a card key
 * taken out of the configuration opens nothing more (purposeKey refuses first); `id` must hold
 * everything the decryption authenticates (the associated data and the payload), so an altered or
 * moved value is never a hit. Only what opened is kept: a failure throws every time. The plaintext
 * stays in this process's memory, which already holds the card-data key that opens it.
 */
export function openedOnce<T>(key: Buffer, id: string, open: () => T): T {
  let opened = openedBy.get(key);
  if (!opened) openedBy.set(key, (opened = new Map()));
  if (opened.has(id)) return opened.get(id) as T;
  const value = open();
  if (opened.size >= OPENED_LIMIT) opened.delete(opened.keys().next().value as string);
  opened.set(id, value);
  return value;
}
