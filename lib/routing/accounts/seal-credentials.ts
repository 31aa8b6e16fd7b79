// Acquirer credentials at rest: AES-256-GCM under a key of their own, derived with HKDF from the
// card-data key with its own label (as the TOTP secrets are, lib/auth/totp.ts), so a credential is
// never sealed as if it were a card number; the ciphertext is bound to its account id and key id, so
// it cannot be moved to another account. `cards rotate-key` re-seals them under the current key.
import { createCipheriv, createDecipheriv, createHmac, randomBytes } from "node:crypto";
import { openedOnce, purposeKey } from "../../cards/sealed-secret";
import { config } from "../../env";
import { parseCredentials, type ProcessorCredentials } from "../../acquirers/credentials";

const SEALED_PREFIX = "acq1";
const HKDF_INFO = "card-payment-service/acquirer-credentials/v1";
const IV_BYTES = 12;
const TAG_BYTES = 16;

/** The credentials' key from card-data key `keyId` (the current one when undefined), derived once per process and key. */
function credentialsKey(keyId: string | undefined): { id: string; key: Buffer } {
  return purposeKey({ prefix: SEALED_PREFIX, label: HKDF_INFO }, keyId);
}

export interface SealedCredentials {
  credentialsSealed: string;
  credentialsKeyId: string;
}

/** "acq1:<base64 iv|tag|ciphertext>" of the credentials' JSON, authenticated with the key id and the account id. */
export function sealCredentials(value: ProcessorCredentials, accountId: string): SealedCredentials {
  return sealPayload(value, accountId);
}

/**
 * What the ciphertext is bound to: the account id, and for the reporting API's credentials (issue 40)
 * that purpose too, so the gateway's and the reporting credentials of one account cannot be swapped.
 */
function binding(accountId: string, purpose: CredentialsPurpose): string {
  return purpose === "gateway" ? accountId : `${accountId}:${purpose}`;
}

type CredentialsPurpose = "gateway" | "reporting";

function sealPayload(value: SealedPayload, accountId: string, purpose: CredentialsPurpose = "gateway"): SealedCredentials {
  const { id, key } = credentialsKey(undefined);
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv("aes-256-gcm", key, iv);
  cipher.setAAD(Buffer.from(`${SEALED_PREFIX}:${id}:${binding(accountId, purpose)}`));
  const ciphertext = Buffer.concat([cipher.update(JSON.stringify(value), "utf8"), cipher.final()]);
  return {
    credentialsSealed: `${SEALED_PREFIX}:${Buffer.concat([iv, cipher.getAuthTag(), ciphertext]).toString("base64")}`,
    credentialsKeyId: id,
  };
}

/** What is sealed: the processor, its platform when not the first, and its credentials, as they were valid when sealed. */
interface SealedPayload {
  processor: ProcessorCredentials["processor"];
  platform?: string;
  credentials: unknown;
}

/**
 * The credentials in clear, validated again by their processor's (platform's) schema (a row never
 * bypasses it). Opened once per process and sealed value (openedOnce): the result is frozen, as every
 * later call for the same value shares it.
 */
export function openCredentials(sealed: SealedCredentials, accountId: string): ProcessorCredentials {
  return openedOnce(credentialsKey(sealed.credentialsKeyId).key, `${binding(accountId, "gateway")}\n${sealed.credentialsSealed}`, () => {
    const json = openPayload(sealed, accountId);
    const opened = parseCredentials(json.processor, json.credentials, json.platform);
    return Object.freeze({ ...opened, credentials: Object.freeze({ ...opened.credentials }) }) as ProcessorCredentials;
  });
}

/**
 * The same payload sealed under the current key, without validating it: a key rotation must carry
 * over credentials its processor's schema no longer takes (bambora accounts from before issue 26)
 * as well as valid ones.
 */
export function resealCredentials(sealed: SealedCredentials, accountId: string, purpose: CredentialsPurpose = "gateway"): SealedCredentials {
  return sealPayload(openPayload(sealed, accountId, purpose), accountId, purpose);
}

/**
 * The reporting API's credentials (AcquirerAccount.reportingCredentialsSealed), already validated by
 * the module's `reporting.credentials` schema; sealed with the same key, bound to the account and the purpose.
 */
export function sealReportingCredentials(processor: ProcessorCredentials["processor"], credentials: unknown, accountId: string): SealedCredentials {
  return sealPayload({ processor, credentials }, accountId, "reporting");
}

/** The reporting credentials in clear, unvalidated: the caller parses them with its module's schema. */
export function openReportingCredentials(sealed: SealedCredentials, accountId: string): { processor: string; credentials: unknown } {
  const payload = openPayload(sealed, accountId, "reporting");
  return { processor: payload.processor, credentials: payload.credentials };
}

/** 16 hex digits of an HMAC of the reporting credentials, as `credentialsFingerprint` for the gateway's. */
export function reportingCredentialsFingerprint(processor: string, credentials: Record<string, unknown>): string {
  const canonical = JSON.stringify(Object.entries(credentials).sort(([a], [b]) => a.localeCompare(b)));
  return createHmac("sha256", config().secrets.apiKeySecret).update(`reporting-credentials:${processor}:${canonical}`).digest("hex").slice(0, 16);
}

function openPayload(sealed: SealedCredentials, accountId: string, purpose: CredentialsPurpose = "gateway"): SealedPayload {
  const payload = sealed.credentialsSealed.slice(`${SEALED_PREFIX}:`.length);
  const raw = Buffer.from(payload, "base64");
  const decipher = createDecipheriv("aes-256-gcm", credentialsKey(sealed.credentialsKeyId).key, raw.subarray(0, IV_BYTES));
  decipher.setAAD(Buffer.from(`${SEALED_PREFIX}:${sealed.credentialsKeyId}:${binding(accountId, purpose)}`));
  decipher.setAuthTag(raw.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
  return JSON.parse(
    Buffer.concat([decipher.update(raw.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]).toString("utf8"),
  ) as SealedPayload;
}

/**
 * What the back office shows instead of the credentials: 16 hex digits of an HMAC under the server's
 * API-key secret, so an owner can tell whether the same credentials were entered again without the
 * page (or a database reader) learning anything about them.
 */
export function credentialsFingerprint(value: ProcessorCredentials): string {
  const canonical = JSON.stringify(Object.entries(value.credentials).sort(([a], [b]) => a.localeCompare(b)));
  return createHmac("sha256", config().secrets.apiKeySecret)
    .update(`acquirer-credentials:${value.processor}${value.platform ? `.${value.platform}` : ""}:${canonical}`)
    .digest("hex")
    .slice(0, 16);
}
