// A fingerprint of a card (its number and expiry) under a key of the caller's: the same card gives
// the same hex string under the same key and label, and nothing about the card can be read from it.
import { createHmac } from "node:crypto";
import type { CardDetails } from "./card-details";

/** Hex HMAC-SHA256 of "<label>:<PAN>:<YYYY>-<MM>". */
export function keyedCardFingerprint(card: CardDetails, key: Buffer, label: string): string {
  return createHmac("sha256", key)
    .update(`${label}:${card.revealPan()}:${card.expYear}-${String(card.expMonth).padStart(2, "0")}`)
    .digest("hex");
}
