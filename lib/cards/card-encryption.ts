// Stored card numbers are encrypted with AES-256-GCM under the configured card-data key.
// The stored text is "<keyId>:<base64 iv|tag|ciphertext>" split over two columns (keyId, panEncrypted),
// so a key can be replaced: CARD_DATA_PREVIOUS_KEYS keeps old keys for decryption.
import { createCipheriv, createDecipheriv, createHash, createHmac, randomBytes } from "node:crypto";
import { config } from "../env";

const IV_BYTES = 12;
const TAG_BYTES = 16;

interface CardKey {
  id: string;
  key: Buffer;
}

/** Parsed keys by their configured text: each open needs its key, and its id is a SHA-256 (issue 37's worker profile). */
const parsedKeys = new Map<string, CardKey>();

function keyFromBase64(value: string): CardKey {
  const known = parsedKeys.get(value);
  if (known) return known;
  const key = Buffer.from(value.trim(), "base64");
  if (key.length !== 32) throw new Error("a card-data key must be 32 bytes, base64");
  const parsed = { id: createHash("sha256").update(key).digest("hex").slice(0, 12), key };
  // Bounded: a process sees its configured keys, and a test that changes them a few more.
  if (parsedKeys.size >= 64) parsedKeys.clear();
  parsedKeys.set(value, parsed);
  return parsed;
}

function currentKey(): CardKey {
  return keyFromBase64(config().secrets.cardDataKey);
}

function allKeys(): CardKey[] {
  const previous = config()
    .CARD_DATA_PREVIOUS_KEYS.split(",")
    .map((value) => value.trim())
    .filter(Boolean)
    .map(keyFromBase64);
  return [currentKey(), ...previous];
}

/**
 * The raw bytes of the current card-data key (or of the configured key `keyId`), for the few
 * secrets that derive their own key from it (lib/auth/totp.ts, HKDF with their own label).
 */
export function cardKeyMaterial(keyId?: string): CardKey {
  const cardKey = keyId === undefined ? currentKey() : allKeys().find((candidate) => candidate.id === keyId);
  if (!cardKey) throw new CardKeyUnavailableError(keyId ?? "");
  return cardKey;
}

export interface EncryptedPan {
  keyId: string;
  panEncrypted: string;
}

export function encryptPan(pan: string): EncryptedPan {
  const { id, key } = currentKey();
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv("aes-256-gcm", key, iv);
  // The key id is authenticated too: a ciphertext cannot be moved to another key's label.
  cipher.setAAD(Buffer.from(id));
  const ciphertext = Buffer.concat([cipher.update(pan, "utf8"), cipher.final()]);
  return { keyId: id, panEncrypted: Buffer.concat([iv, cipher.getAuthTag(), ciphertext]).toString("base64") };
}

export class CardKeyUnavailableError extends Error {
  constructor(keyId: string) {
    super(`card data was encrypted with key ${keyId}, which is not configured (CARD_DATA_KEY / CARD_DATA_PREVIOUS_KEYS)`);
    this.name = "CardKeyUnavailableError";
  }
}

export function decryptPan({ keyId, panEncrypted }: EncryptedPan): string {
  const cardKey = allKeys().find((candidate) => candidate.id === keyId);
  if (!cardKey) throw new CardKeyUnavailableError(keyId);
  const raw = Buffer.from(panEncrypted, "base64");
  const decipher = createDecipheriv("aes-256-gcm", cardKey.key, raw.subarray(0, IV_BYTES));
  decipher.setAAD(Buffer.from(keyId));
  decipher.setAuthTag(raw.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
  return Buffer.concat([decipher.update(raw.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]).toString("utf8");
}

/** Finds the same card again without decrypting anything: HMAC of the PAN under a server secret. */
export function panFingerprint(pan: string): string {
  return createHmac("sha256", config().secrets.apiKeySecret).update(`pan:${pan}`).digest("hex");
}
