// Clearhaus credentials: the API key of the merchant account (a UUIDv4, Basic auth user name), and for
// signing partners the partner's signing API key with its RSA private key ("Signature: <signing-api-key>
// RS256-hex <signature>", getting_started/signing_requests and rsa_signature of the Gateway API docs).
import { createPrivateKey } from "node:crypto";
import { z } from "zod";
import type { CredentialField } from "../contract";

function isRsaPrivateKey(pem: string): boolean {
  try {
    return createPrivateKey(pem).asymmetricKeyType === "rsa";
  } catch {
    return false;
  }
}

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

export type ClearhausCredentials = z.infer<typeof clearhausCredentials>;

/** The credential fields, in form order. */
export const CLEARHAUS_CREDENTIAL_FIELDS: readonly CredentialField[] = [
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
];
