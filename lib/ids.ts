// Public identifiers. The spec's ids (paymentid, sessionid, responseid, operationid) are
// "UUID, 1 to 32 alphanumeric characters": a random UUID without its hyphens fits both.
import { randomBytes, randomUUID } from "node:crypto";

export function newId(): string {
  return randomUUID().replace(/-/g, "");
}

/** Merchant ids are shorter, since people read and type them: 12 digits. */
export function newMerchantId(): string {
  const digits = Array.from(randomBytes(12), (byte) => String(byte % 10)).join("");
  return `1${digits.slice(1)}`;
}

const BASE62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

/** Uniformly random base62 text (rejection sampling keeps every character equally likely). */
export function randomBase62(length: number): string {
  let out = "";
  while (out.length < length) {
    for (const byte of randomBytes(length * 2)) {
      if (byte < 248 && out.length < length) out += BASE62[byte % 62];
    }
  }
  return out;
}
