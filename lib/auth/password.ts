// Back-office passwords: argon2id (OWASP parameters: 19 MiB, 2 iterations, 1 lane). A password someone
// chooses has at least 12 characters (PCI DSS v4 8.3.6) and is checked against zxcvbn's lists of
// common passwords and words (@zxcvbn-ts/language-common): one found there, or as easy to guess
// (score below 3, about 10^8 guesses), is refused (NIST SP 800-63B 5.1.1.2; review 3, M8).
import { randomInt } from "node:crypto";
import { hash, verify } from "@node-rs/argon2";
import { ZxcvbnFactory } from "@zxcvbn-ts/core";
import * as common from "@zxcvbn-ts/language-common";
import { z } from "zod";

const ARGON2ID = 2;
const OPTIONS = { algorithm: ARGON2ID, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

export const MIN_PASSWORD_LENGTH = 12;
export const MAX_PASSWORD_LENGTH = 200;

let strength: ZxcvbnFactory | undefined;

/** Whether `password` is a common password, or made of common ones and patterns (zxcvbn score < 3). */
export function isCommonPassword(password: string): boolean {
  strength ??= new ZxcvbnFactory({ dictionary: { ...common.dictionary }, graphs: common.adjacencyGraphs });
  // zxcvbn's cost grows with the length; past 100 characters nothing in its lists matters any more.
  return strength.check(password.slice(0, 100)).score < 3;
}

/** The one rule for a password someone chooses (user creation, team add, password change). */
export const newPasswordSchema = z
  .string({ error: `Use at least ${MIN_PASSWORD_LENGTH} characters` })
  .min(MIN_PASSWORD_LENGTH, `Use at least ${MIN_PASSWORD_LENGTH} characters`)
  .max(MAX_PASSWORD_LENGTH, `Use at most ${MAX_PASSWORD_LENGTH} characters`)
  .refine((password) => !isCommonPassword(password), "This password is too common or too easy to guess: use a longer phrase of unrelated words");

// No look-alikes (0/O, 1/l/I): a temporary password is read out or typed from a screen.
const TEMPORARY_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz23456789";

/** A random password for a reset: 20 characters of 57 (about 116 bits), grouped by 5 for reading. */
export function generateTemporaryPassword(): string {
  const chars = Array.from({ length: 20 }, () => TEMPORARY_ALPHABET[randomInt(TEMPORARY_ALPHABET.length)]);
  return [0, 5, 10, 15].map((start) => chars.slice(start, start + 5).join("")).join("-");
}

export function hashPassword(password: string): Promise<string> {
  return hash(password, OPTIONS);
}

export async function verifyPassword(passwordHash: string, password: string): Promise<boolean> {
  try {
    return await verify(passwordHash, password);
  } catch {
    return false;
  }
}
