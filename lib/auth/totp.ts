// Time-based one-time codes (RFC 6238, 30-second steps, 6 digits) as the second sign-in factor.
// The shared secret is stored encrypted (AES-256-GCM) under a key of its own, derived with HKDF from
// the configured card-data key with its own label: a TOTP secret is never sealed as if it were a card
// number, and the ciphertext is bound to its user. Secrets sealed by earlier versions directly with
// the card-data key are still read, and re-sealed under the TOTP key on that first read.
import { generateSecret, generateURI, verify } from "otplib";
import { decryptPan } from "../cards/card-encryption";
import { isSealedFor, openSecret, sealSecret, type SealPurpose } from "../cards/sealed-secret";
import { db } from "../db";

export const TOTP_ISSUER = "Card Payment Service";
/** One step either side: authenticator clocks drift, and a code typed at the end of its step still counts. */
const EPOCH_TOLERANCE_SECONDS = 30;

export function newTotpSecret(): string {
  return generateSecret();
}

export function totpUri(secret: string, email: string): string {
  return generateURI({ issuer: TOTP_ISSUER, label: email, secret });
}

const TOTP_SEAL: SealPurpose = { prefix: "totp1", label: "card-payment-service/totp-secret/v1" };

/** "totp1:<card key id>:<base64 iv|tag|ciphertext>", authenticated together with the user id (lib/cards/sealed-secret.ts). */
export function sealTotpSecret(secret: string, userId: string): string {
  return sealSecret(TOTP_SEAL, secret, userId);
}

/**
 * The user's TOTP secret in clear. A secret in the old form ("<card key id>:<ciphertext>", sealed
 * like a card number) is re-sealed under the TOTP key at once; the update is conditional on the old
 * value, so a concurrent change (a new enrolment) is never overwritten.
 */
export async function openTotpSecret(sealed: string, userId: string): Promise<string> {
  if (isSealedFor(TOTP_SEAL, sealed)) return openSecret(TOTP_SEAL, sealed, userId);
  const separator = sealed.indexOf(":");
  const secret = decryptPan({ keyId: sealed.slice(0, separator), panEncrypted: sealed.slice(separator + 1) });
  await db().user.updateMany({ where: { id: userId, totpSecret: sealed }, data: { totpSecret: sealTotpSecret(secret, userId) } });
  return secret;
}

/**
 * The 30-second time step the code belongs to, when it is valid now (within the tolerance) and
 * later than `afterStep`, the step of the last code this user had accepted; otherwise null.
 * A code is good once (RFC 6238 §5.2): the caller records the step with `claimTotpStep`.
 */
export async function matchTotpStep(secret: string, code: string, afterStep: number | null): Promise<number | null> {
  const token = code.replace(/\s+/g, "");
  if (!/^\d{6}$/.test(token)) return null;
  try {
    const result = await verify({
      secret,
      token,
      epochTolerance: EPOCH_TOLERANCE_SECONDS,
      ...(afterStep === null ? {} : { afterTimeStep: afterStep }),
    });
    if (!result.valid || !("timeStep" in result) || typeof result.timeStep !== "number") return null;
    return afterStep === null || result.timeStep > afterStep ? result.timeStep : null;
  } catch {
    return null;
  }
}

/**
 * The condition that lets an update record `step` as the user's last used step: no code of this
 * step or a later one was accepted before. Used in an `updateMany` whose count must be 1, so two
 * concurrent requests with the same code cannot both get through.
 */
export function totpStepUnused(step: number) {
  return { OR: [{ totpLastUsedStep: null }, { totpLastUsedStep: { lt: step } }] };
}
