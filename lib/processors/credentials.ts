// The credentials of an acquirer account, one zod schema per processor, in one place: the connectors
// take a parsed object of their processor's type on every call (lib/processors/types.ts), the
// account use cases validate input with the same schema before anything is sealed and saved, and the
// CLI and the back office build their forms from CREDENTIAL_FIELDS. A processor whose API changes
// (Bambora's, issue 26) changes its schema and its fields here and nowhere else.
import { createPrivateKey } from "node:crypto";
import { z } from "zod";
import type { ProcessorName } from "./types";

/** Printable ASCII without spaces: what goes into a form field, a header or a signature. */
const token = (label: string, min: number, max: number) =>
  z
    .string({ error: `${label} is required` })
    .trim()
    .min(min, `${label} must be at least ${min} characters`)
    .max(max, `${label} must be at most ${max} characters`)
    .regex(/^[\x21-\x7E]+$/, `${label} must be printable ASCII without spaces`);

const alphanumeric = (label: string, min: number, max: number) =>
  token(label, min, max).regex(/^[A-Za-z0-9]+$/, `${label} must be letters and digits only`);

/**
 * Finaro (Credorax) "M" merchant id and the key its requests are signed with ("K", the cipher key of
 * ActiveMerchant's credorax.rb). Finaro issues a MID per merchant, often one per currency.
 */
export const finaroCredentials = z
  .object({
    merchantId: token("Merchant id (M)", 1, 32).regex(/^[A-Za-z0-9_-]+$/, "Merchant id (M) must be letters, digits, - and _"),
    signatureKey: token("Signature key", 8, 128),
  })
  .strict();

function isRsaPrivateKey(pem: string): boolean {
  try {
    return createPrivateKey(pem).asymmetricKeyType === "rsa";
  } catch {
    return false;
  }
}

/**
 * Clearhaus: the API key of the merchant account (a UUIDv4, Basic auth user name), and for signing
 * partners the partner's signing API key with its RSA private key ("Signature: <signing-api-key>
 * RS256-hex <signature>", getting_started/signing_requests and rsa_signature of the Gateway API docs).
 */
export const clearhausCredentials = z
  .object({
    apiKey: z.uuid({ error: "API key must be a UUID, as Clearhaus issues them" }),
    signingApiKey: z.uuid({ error: "Signing API key must be a UUID" }).optional(),
    signingPrivateKey: z
      .string()
      .trim()
      .max(10_000, "Signing private key is too long")
      .refine(isRsaPrivateKey, "Signing private key must be an RSA private key in PEM form")
      .optional(),
  })
  .strict()
  .refine((value) => Boolean(value.signingApiKey) === Boolean(value.signingPrivateKey), {
    message: "Signing API key and signing private key go together: give both or neither",
    path: ["signingPrivateKey"],
  });

/** A Bambora North America merchant id: 9 digits (e.g. 300200578). */
const bamboraMerchantId = (label: string) =>
  z
    .string({ error: `${label} is required` })
    .trim()
    .regex(/^\d{9}$/, `${label} must be the 9 digits Bambora issued (e.g. 300200578)`);

/**
 * Bambora North America Payments API v1 (docs/acquirers/references/bambora.md): the merchant id and
 * one passcode per API ("Authorization: Passcode base64(merchant_id:passcode)"): the Payments API
 * passcode for payments, completions, returns and voids, the Reporting API passcode for the search
 * by our order number (the look-up after a lost answer). A partner acting for a sub-merchant
 * authenticates with its own merchant id and passcodes and names the sub-merchant in `Sub-Merchant-Id`.
 * The account's currency (CAD or USD, the processor's one currency) is the account's `currencies`.
 */
export const bamboraCredentials = z
  .object({
    merchantId: bamboraMerchantId("Merchant id"),
    paymentsPasscode: alphanumeric("Payments API passcode", 1, 64),
    reportingPasscode: alphanumeric("Reporting API passcode", 1, 64),
    subMerchantId: bamboraMerchantId("Sub-merchant id").optional(),
  })
  .strict();

export const CREDENTIAL_SCHEMAS = {
  finaro: finaroCredentials,
  clearhaus: clearhausCredentials,
  bambora: bamboraCredentials,
} as const satisfies Record<ProcessorName, z.ZodType>;

export type FinaroCredentials = z.infer<typeof finaroCredentials>;
export type ClearhausCredentials = z.infer<typeof clearhausCredentials>;
export type BamboraCredentials = z.infer<typeof bamboraCredentials>;
export type CredentialsOf<TName extends ProcessorName> = z.infer<(typeof CREDENTIAL_SCHEMAS)[TName]>;

/** Credentials together with the processor they are for: what is sealed and what a connector call gets. */
export type ProcessorCredentials = { [TName in ProcessorName]: { processor: TName; credentials: CredentialsOf<TName> } }[ProcessorName];

/** Parses `input` as `processor`'s credentials (throws a ZodError naming the field). */
export function parseCredentials(processor: ProcessorName, input: unknown): ProcessorCredentials {
  switch (processor) {
    case "finaro":
      return { processor, credentials: finaroCredentials.parse(input) };
    case "clearhaus":
      return { processor, credentials: clearhausCredentials.parse(input) };
    case "bambora":
      return { processor, credentials: bamboraCredentials.parse(input) };
  }
}

export interface CredentialField {
  /** The key in the credentials object (and the form field / CLI option after "credential-"). */
  key: string;
  label: string;
  /** Secrets are entered in password fields; identifiers in text fields. All are write-only once saved. */
  secret: boolean;
  optional?: boolean;
  multiline?: boolean;
  hint?: string;
}

/** The fields of each processor's credentials, in form order. */
export const CREDENTIAL_FIELDS: Record<ProcessorName, readonly CredentialField[]> = {
  finaro: [
    { key: "merchantId", label: "Merchant id (M)", secret: false, hint: "The MID Finaro issued for this merchant (and currency)." },
    { key: "signatureKey", label: "Signature key", secret: true, hint: "Signs every request (K)." },
  ],
  clearhaus: [
    { key: "apiKey", label: "API key", secret: true, hint: "The merchant account's API key (a UUID)." },
    { key: "signingApiKey", label: "Signing API key", secret: false, optional: true, hint: "Signing partners only." },
    {
      key: "signingPrivateKey",
      label: "Signing private key (PEM)",
      secret: true,
      optional: true,
      multiline: true,
      hint: "Signing partners only.",
    },
  ],
  bambora: [
    { key: "merchantId", label: "Merchant id", secret: false, hint: "The 9-digit merchant id of the Bambora North America account." },
    {
      key: "paymentsPasscode",
      label: "Payments API passcode",
      secret: true,
      hint: "Member area: administration → account settings → order settings, section Payment Gateway.",
    },
    {
      key: "reportingPasscode",
      label: "Reporting API passcode",
      secret: true,
      hint: "Order settings, section Reporting: used to look up a payment whose answer was lost.",
    },
    {
      key: "subMerchantId",
      label: "Sub-merchant id",
      secret: false,
      optional: true,
      hint: "Partners only: the sub-merchant this account acts for.",
    },
  ],
};
