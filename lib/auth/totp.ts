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

export async function verifyTotpCode(secret: string, code: string): Promise<boolean> {
  const token = code.replace(/\s+/g, "");
  if (!/^\d{6}$/.test(token)) return false;
  try {
    const result = await verify({ secret, token, epochTolerance: EPOCH_TOLERANCE_SECONDS });
    return result.valid;
  } catch {
    return false;
  }
}
