// Payment Account Reference (EMVCo): 29 alphanumeric characters, one per card account, the same for
// every token of it and never usable to pay. The scheme assigns it; when the acquirer returns none,
// the gateway derives one: a 4-character BIN-controller prefix and 25 characters of a keyed hash of the
// PAN. The key matters: an unkeyed hash of a PAN can be reversed by trying the few billion PANs of a BIN.
import { createHmac } from "node:crypto";
import type { CardScheme } from "./card-scheme";

const CONTROLLER_PREFIX: Record<CardScheme, string> = { visa: "V001", mastercard: "5001", amex: "A001" };
const ALPHABET = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ";

export interface DeriveParOptions {
  pan: string;
  scheme: CardScheme;
  /** Secret of whoever derives it (the gateway's server secret, or a sandbox's own). */
  key: string;
}

export function derivePar({ pan, scheme, key }: DeriveParOptions): string {
  const digest = createHmac("sha256", key).update(`par:${pan}`).digest();
  let body = "";
  for (let index = 0; body.length < 25; index++) body += ALPHABET[digest[index % digest.length]! % ALPHABET.length];
  return `${CONTROLLER_PREFIX[scheme]}${body}`;
}

export function isPar(value: string): boolean {
  return /^[A-Z0-9]{29}$/.test(value);
}
