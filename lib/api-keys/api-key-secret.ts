// API keys are stored only as HMAC-SHA256 under a server secret: fast enough to check on every
// request (unlike a password hash) and useless to anyone who reads the table without the secret.
import { createHmac, timingSafeEqual } from "node:crypto";
import { config } from "../env";
import { randomBase62 } from "../ids";
import type { Mode } from "../mode";

export const API_KEY_PREFIX = "cps_";
/**
 * How many leading characters of a key are kept in clear to tell keys apart: the mode and 7 random
 * characters (cps_live_AbC1234). Keys from before test and live mode have no mode in them.
 */
export const API_KEY_VISIBLE_CHARS = 16;

/** A new key of `mode`: cps_test_… or cps_live_…, so that a glance (or a secret scanner) tells them apart. */
export function generateApiKey(mode: Mode): string {
  return `${API_KEY_PREFIX}${mode}_${randomBase62(40)}`;
}

export function hashApiKey(apiKey: string): string {
  return createHmac("sha256", config().secrets.apiKeySecret).update(apiKey).digest("hex");
}

export function visiblePrefix(apiKey: string): string {
  return apiKey.slice(0, API_KEY_VISIBLE_CHARS);
}

/** Constant-time comparison of two hex digests. */
export function digestsEqual(a: string, b: string): boolean {
  const left = Buffer.from(a, "hex");
  const right = Buffer.from(b, "hex");
  return left.length === right.length && timingSafeEqual(left, right);
}
