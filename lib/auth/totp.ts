// Time-based one-time codes (RFC 6238, 30-second steps, 6 digits) as the second sign-in factor.
// The shared secret is stored encrypted with the card-data key (AES-256-GCM), never in clear.
import { generateSecret, generateURI, verify } from "otplib";
import { decryptPan, encryptPan } from "../cards/card-encryption";

export const TOTP_ISSUER = "Card Payment Service";
/** One step either side: authenticator clocks drift, and a code typed at the end of its step still counts. */
const EPOCH_TOLERANCE_SECONDS = 30;

export function newTotpSecret(): string {
  return generateSecret();
}

export function totpUri(secret: string, email: string): string {
  return generateURI({ issuer: TOTP_ISSUER, label: email, secret });
}

export function sealTotpSecret(secret: string): string {
  const { keyId, panEncrypted } = encryptPan(secret);
  return `${keyId}:${panEncrypted}`;
}

export function openTotpSecret(sealed: string): string {
  const separator = sealed.indexOf(":");
  return decryptPan({ keyId: sealed.slice(0, separator), panEncrypted: sealed.slice(separator + 1) });
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
    const result = await verify({ secret, token, epochTolerance: EPOCH_TOLERANCE_SECONDS, ...(afterStep === null ? {} : { afterTimeStep: afterStep }) });
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
