// Clearhaus Merchant API credentials: the OAuth client a merchant registers with Clearhaus ("register
// an OAuth Client with Clearhaus to obtain client credentials, client_id and client_secret",
// merchant-api/start [S1]); sent as HTTP Basic client authentication to the token endpoint. Their
// format is not published, so only what fits a Basic header is required: printable ASCII, no
// spaces, and no colon in the id (it would split the Basic pair).
import { z } from "zod";
import type { CredentialField } from "../../contract";
import { token } from "../../plumbing/credential-schema";

export const clearhausMerchantApiCredentials = z
  .object({
    clientId: token("Client id", 1, 200).refine((value) => !value.includes(":"), "Client id must not contain a colon"),
    clientSecret: token("Client secret", 8, 500),
  })
  .strict();

export type ClearhausMerchantApiCredentials = z.infer<typeof clearhausMerchantApiCredentials>;

/** The form fields, in form order. */
export const CLEARHAUS_MERCHANT_API_CREDENTIAL_FIELDS: readonly CredentialField[] = [
  { key: "clientId", label: "Merchant API client id", secret: false, hint: "The OAuth client registered with Clearhaus (client_credentials grant)." },
  { key: "clientSecret", label: "Merchant API client secret", secret: true, hint: "Given by Clearhaus with the client id." },
];
