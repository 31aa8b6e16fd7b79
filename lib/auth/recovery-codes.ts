// Recovery codes for the second factor (review 3, M8: MFA is required, so a lost phone must not lock
// an owner out for good): ten one-time codes made when the second factor is turned on, shown once,
// stored as HMAC-SHA256 under the API-key secret (each has about 50 bits, so a keyed hash suffices and
// a lookup needs no argon2 per code). Entered in the code field at sign-in; each works once.
import { createHmac, randomBytes } from "node:crypto";
import type { Tx } from "../db";
import { db } from "../db";
import { config } from "../env";
import { newId } from "../ids";

const CODE_COUNT = 10;
// No look-alikes (0/O, 1/l/I): codes are typed from a printout.
const ALPHABET = "abcdefghjkmnpqrstuvwxyz23456789";
export const RECOVERY_CODE_PATTERN = /^[a-z2-9]{5}-[a-z2-9]{5}$/;

function hashCode(code: string): string {
  return createHmac("sha256", config().secrets.apiKeySecret).update(`backoffice-recovery-code:${code}`).digest("hex");
}

function newCode(): string {
  const bytes = randomBytes(10);
  const chars = Array.from(bytes, (byte) => ALPHABET[byte % ALPHABET.length]).join("");
  return `${chars.slice(0, 5)}-${chars.slice(5)}`;
}

/** Replaces the user's recovery codes with ten new ones; returns them in clear (to show once). */
export async function issueRecoveryCodes({ tx, userId }: { tx: Tx; userId: string }): Promise<string[]> {
  const codes = Array.from({ length: CODE_COUNT }, newCode);
  await tx.recoveryCode.deleteMany({ where: { userId } });
  await tx.recoveryCode.createMany({ data: codes.map((code) => ({ id: newId(), userId, hash: hashCode(code) })) });
  return codes;
}

/** Uses up `code` if it is one of the user's unused recovery codes (conditional: a code works once). */
export async function redeemRecoveryCode({ userId, code, now = new Date() }: { userId: string; code: string; now?: Date }): Promise<boolean> {
  const normalized = code.trim().toLowerCase();
  if (!RECOVERY_CODE_PATTERN.test(normalized)) return false;
  const { count } = await db().recoveryCode.updateMany({ where: { userId, hash: hashCode(normalized), usedAt: null }, data: { usedAt: now } });
  return count === 1;
}
