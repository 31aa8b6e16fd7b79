// The Clearhaus Merchant API (issue 40): disputes and settlements beside the Gateway API, with OAuth
// client credentials of its own (./credentials.ts) and its own endpoints (module variables, below).
// docs/acquirers.md, "Disputes and settlements".
import { z } from "zod";
import type { AcquirerReporting, SettlementLineReference } from "../../contract";
import { clearhausReference } from "../transformers";
import { createClearhausMerchantApiClient } from "./client";
import { CLEARHAUS_MERCHANT_API_CREDENTIAL_FIELDS, clearhausMerchantApiCredentials, type ClearhausMerchantApiCredentials } from "./credentials";

/** The entrypoints [S1]: "https://merchant.clearhaus.com # Production", "https://merchant.test.clearhaus.com # Sandbox". */
export const MERCHANT_API_HOSTS = { live: "https://merchant.clearhaus.com", test: "https://merchant.test.clearhaus.com" } as const;

/** The module variables of the Merchant API's endpoints (the naming of <NAME>_BASE_URL and <NAME>_TEST_BASE_URL). */
export const clearhausMerchantApiVariables = z.object({
  /** Live accounts' Merchant API root; default the production entrypoint. */
  CLEARHAUS_MERCHANT_API_BASE_URL: z.url().optional(),
  /** Test accounts' Merchant API root (e.g. the reference's test entrypoint); unset: the built-in sandbox. */
  CLEARHAUS_MERCHANT_API_TEST_BASE_URL: z.url().optional(),
});
export type ClearhausMerchantApiVariables = z.infer<typeof clearhausMerchantApiVariables>;

/** Evidence files: docs/decisions/0196-dispute-evidence-files-for-clearhaus.md. */
export const CLEARHAUS_EVIDENCE_RULES = {
  contentTypes: ["application/pdf"],
  maxBytes: 5 * 1024 * 1024,
  maxFiles: 1,
  source:
    "docs/decisions/0196-dispute-evidence-files-for-clearhaus.md: Clearhaus publishes no type or size limit [S14]; its dashboard takes documentation as a single PDF [S17]; 5 MB as Stripe's per-file limit",
} as const;

/**
 * A transaction's `reference` in the Merchant API is the Gateway API's `reference` ([S10]; [CH] authorizations.md): sent
 * only with an authorization or a credit, as the first 30 characters of our operation id (its
 * limit, ../transformers.ts). Whether Clearhaus reports it on the captures, refunds and voids of an
 * authorization is not published; the sandbox assumes it does, and `first-operation` matches both
 * ways (docs/decisions/0208-settlement-lines-matched-by-the-reference-the-connector-sends.md).
 */
export const CLEARHAUS_LINE_REFERENCE: SettlementLineReference = { of: clearhausReference, sentOn: "first-operation" };

export const clearhausReporting: AcquirerReporting<ClearhausMerchantApiCredentials, ClearhausMerchantApiVariables> = {
  label: "Clearhaus Merchant API",
  credentials: { schema: clearhausMerchantApiCredentials, fields: CLEARHAUS_MERCHANT_API_CREDENTIAL_FIELDS },
  evidence: CLEARHAUS_EVIDENCE_RULES,
  lineReference: CLEARHAUS_LINE_REFERENCE,
  endpoint: (mode, variables) =>
    mode === "live" ? (variables.CLEARHAUS_MERCHANT_API_BASE_URL ?? MERCHANT_API_HOSTS.live) : variables.CLEARHAUS_MERCHANT_API_TEST_BASE_URL,
  endpointVariables: { live: "CLEARHAUS_MERCHANT_API_BASE_URL", test: "CLEARHAUS_MERCHANT_API_TEST_BASE_URL" },
  createClient: ({ baseUrl, timeoutMs }) => createClearhausMerchantApiClient({ baseUrl, timeoutMs }),
};
