// What a 3-D Secure authentication was for: the card (PAN and expiry), the amount and the currency.
// Recorded when the AReq is sent; a result may only authorize a request that matches all of them,
// so a challenge passed with one card cannot carry sca=Y and its ECI onto another (security item 3).
// The card is kept as a keyed hash (HMAC-SHA256 under a key derived from the card-data key with its
// own label): an unkeyed hash of a PAN can be reversed by trying the PANs of a BIN.
import { hkdfSync, timingSafeEqual } from "node:crypto";
import type { CardDetails } from "../cards/card-details";
import { keyedCardFingerprint } from "../cards/keyed-fingerprint";
import { config } from "../env";

export interface AuthenticationSubject {
  card: CardDetails;
  amount: bigint;
  currency: string;
}

export interface RecordedSubject {
  cardFingerprint: string | null;
  amount: bigint | null;
  currency: string | null;
}

function fingerprintKey(): Buffer {
  return Buffer.from(hkdfSync("sha256", config().secrets.cardDataKey, "", "cps 3-D Secure card fingerprint v1", 32));
}

/** Hex HMAC of the PAN and the expiry (month/four-digit year). Never the PAN itself. */
export function authenticationCardFingerprint(card: CardDetails): string {
  return keyedCardFingerprint(card, fingerprintKey(), "3ds-card");
}

/** The columns startAuthentication records on the authentication row. */
export function recordedSubject({ card, amount, currency }: AuthenticationSubject): RecordedSubject {
  return { cardFingerprint: authenticationCardFingerprint(card), amount, currency: currency.toUpperCase() };
}

/** True only when the authentication recorded exactly this card, amount and currency (rows from before the binding never match). */
export function authenticationMatches(recorded: RecordedSubject, subject: AuthenticationSubject): boolean {
  if (!recorded.cardFingerprint || recorded.amount === null || !recorded.currency) return false;
  const expected = Buffer.from(recorded.cardFingerprint);
  const actual = Buffer.from(authenticationCardFingerprint(subject.card));
  return (
    expected.length === actual.length &&
    timingSafeEqual(expected, actual) &&
    recorded.amount === subject.amount &&
    recorded.currency === subject.currency.toUpperCase()
  );
}
