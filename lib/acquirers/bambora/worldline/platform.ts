// bambora's second platform (docs/decisions/0193-an-acquirer-with-more-than-one-platform.md): Worldline
// Direct, the server-to-server API of Worldline's acquiring, which Denmark knows as Bambora. An
// account names it with platform "worldline"; its credentials are the PSPID and an API key (id and
// secret: "Configuration > Technical information > API settings > Direct API Key", docs.direct
// "Authentication"), its endpoints the reference's hosts (./endpoints.ts) unless configured.
import { z } from "zod";
import type { AcquirerPlatform, CredentialField } from "../../contract";
import { descriptorLengthProblem, emvAcquirerMerchantIdProblem } from "../../plumbing/account-rules";
import { token } from "../../plumbing/credential-schema";
import { createWorldlineConnector } from "./connector";
import { WORLDLINE_HOSTS, isWorldlineMerchantId } from "./endpoints";

export const worldlineCredentials = z
  .object({
    merchantId: z
      .string({ error: "PSPID is required" })
      .trim()
      .refine(isWorldlineMerchantId, "PSPID: 1 to 30 letters, digits, _ . or -, as Worldline issued it"),
    apiKeyId: token("API key id", 1, 64),
    secretApiKey: token("Secret API key", 16, 256),
  })
  .strict();
export type WorldlineAccountCredentials = z.infer<typeof worldlineCredentials>;

export const WORLDLINE_CREDENTIAL_FIELDS: readonly CredentialField[] = [
  { key: "merchantId", label: "PSPID", secret: false, hint: "The Worldline merchant id (PSPID) of the account: the {merchantId} of every API path." },
  { key: "apiKeyId", label: "API key id", secret: false, hint: "Merchant Portal: Configuration → Technical information → API settings → Direct API Key." },
  { key: "secretApiKey", label: "Secret API key", secret: true, hint: "Shown once by the Merchant Portal when the API key is made." },
];

/** The module variables of this platform's endpoints (the naming of <NAME>_BASE_URL and <NAME>_TEST_BASE_URL). */
export const worldlineEndpointVariables = z.object({
  /** Live accounts' endpoint; default the reference's production host. */
  BAMBORA_WORLDLINE_BASE_URL: z.url().optional(),
  /** Test accounts' endpoint (the reference's pre-production host, for a Worldline test PSPID); unset: the built-in sandbox. */
  BAMBORA_WORLDLINE_TEST_BASE_URL: z.url().optional(),
});
export type WorldlineEndpointVariables = z.infer<typeof worldlineEndpointVariables>;

export const worldlinePlatform: AcquirerPlatform<WorldlineEndpointVariables> = {
  label: "Worldline Direct",
  credentials: { schema: worldlineCredentials, fields: WORLDLINE_CREDENTIAL_FIELDS },
  accountRules: {
    // order.references.descriptor: "the descriptor that will be shown on the customer's statement"
    // (max 256 at Direct); the schemes' merchant-name field holds 22 with a soft descriptor prefix,
    // which is what the transformer sends (./transformers.ts).
    descriptorProblem: (descriptor) => descriptorLengthProblem(descriptor, 1, 22, "Worldline"),
    acquirerMerchantIdProblem: emvAcquirerMerchantIdProblem,
    // The currencies the PSPID is contracted for (DKK, EUR, SEK, NOK for a Nordic merchant): named,
    // since the platform refuses the others.
    currenciesProblem: (value) =>
      value.anyCurrency ? "a Worldline account takes the currencies its PSPID is contracted for: name them (e.g. DKK, EUR)" : undefined,
    hints: {
      acquirerMerchantId: "Worldline: the acquirer's merchant id (MID) for 3-D Secure, at most 35 characters",
      descriptor: "Worldline: 1–22 ASCII characters (order.references.descriptor).",
    },
  },
  // Card-on-file merchant-initiated payments (unscheduledCardOnFile*, recurring), several partial
  // captures (isFinal false) of a PRE_AUTHORIZATION; payouts need Worldline to enable them and are
  // not built; no account-updater feed (docs/acquirers.md).
  capabilities: { payouts: false, merchantInitiated: true, severalCaptures: true, cardUpdates: false },
  endpoint: (mode, variables) => (mode === "live" ? (variables.BAMBORA_WORLDLINE_BASE_URL ?? WORLDLINE_HOSTS.live) : variables.BAMBORA_WORLDLINE_TEST_BASE_URL),
  endpointVariables: { live: "BAMBORA_WORLDLINE_BASE_URL", test: "BAMBORA_WORLDLINE_TEST_BASE_URL" },
  createConnector: ({ baseUrl, timeoutMs }) => createWorldlineConnector({ baseUrl, timeoutMs }),
};
