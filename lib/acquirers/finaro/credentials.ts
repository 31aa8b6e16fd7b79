// Finaro (Credorax) credentials: the "M" merchant id and the key its requests are signed with ("K",
// the cipher key of ActiveMerchant's credorax.rb). Finaro issues a MID per merchant, often one per currency.
import { z } from "zod";
import type { CredentialField } from "../contract";
import { token } from "../plumbing/credential-schema";

export const finaroCredentials = z
  .object({
    merchantId: token("Merchant id (M)", 1, 32).regex(/^[A-Za-z0-9_-]+$/, "Merchant id (M) must be letters, digits, - and _"),
    signatureKey: token("Signature key", 8, 128),
  })
  .strict();

export type FinaroCredentials = z.infer<typeof finaroCredentials>;

/** The credential fields, in form order. */
export const FINARO_CREDENTIAL_FIELDS: readonly CredentialField[] = [
  { key: "merchantId", label: "Merchant id (M)", secret: false, hint: "The MID Finaro issued for this merchant (and currency)." },
  { key: "signatureKey", label: "Signature key", secret: true, hint: "Signs every request (K)." },
];
