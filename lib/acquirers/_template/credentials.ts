// Xacquirer credentials: REPLACE with what the acquirer issues a merchant account (its reference's
// authentication section), each with a message that names the field as the form labels it.
import { z } from "zod";
import type { CredentialField } from "../contract";
import { token } from "../plumbing/credential-schema";

export const xacquirerCredentials = z
  .object({
    apiKey: token("API key", 8, 128),
  })
  .strict();

export type XacquirerCredentials = z.infer<typeof xacquirerCredentials>;

/** The credential fields, in form order. */
export const XACQUIRER_CREDENTIAL_FIELDS: readonly CredentialField[] = [
  { key: "apiKey", label: "API key", secret: true, hint: "The API key of the merchant account." },
];
