// Clearhaus Gateway API: JSON over HTTPS with Basic auth, optionally signed (docs/acquirers.md, "Clearhaus").
import type { AcquirerModule } from "../contract";
import { anyCurrencyAccepted } from "../plumbing/account-rules";
import { createClearhausConnector } from "./client";
import { CLEARHAUS_CREDENTIAL_FIELDS, clearhausCredentials, type ClearhausCredentials } from "./credentials";
import { CLEARHAUS_TEST_CARDS } from "./test-cards";
import { CLEARHAUS_DECLINE_CODES } from "./decline-classes";
import { clearhausMerchantApiVariables, clearhausReporting, type ClearhausMerchantApiVariables } from "./reporting";

/**
 * text_on_statement: [\x20-\x7E]{2,22}, "may not be all digits, all same character, or all
 * sequential characters (e.g. abc)" (api_resources/authorizations, Gateway API docs).
 */
function descriptorProblem(descriptor: string): string | undefined {
  if (descriptor.length < 2 || descriptor.length > 22) return "must be 2 to 22 characters for Clearhaus";
  if (/^\d+$/.test(descriptor)) return "must not be all digits (Clearhaus)";
  if (new Set(descriptor).size === 1) return "must not be one character repeated (Clearhaus)";
  const codes = [...descriptor].map((character) => character.charCodeAt(0));
  const step = codes[1]! - codes[0]!;
  if (Math.abs(step) === 1 && codes.every((code, index) => index === 0 || code - codes[index - 1]! === step)) {
    return "must not be sequential characters such as abc (Clearhaus)";
  }
  return undefined;
}

export const clearhaus: AcquirerModule<ClearhausCredentials, ClearhausMerchantApiVariables> = {
  name: "clearhaus",
  credentials: { schema: clearhausCredentials, fields: CLEARHAUS_CREDENTIAL_FIELDS },
  accountRules: {
    descriptorProblem,
    // GET /account: merchant_id [0-9]{15}, "for 3-D Secure it is important to represent this number
    // with leading zeros".
    acquirerMerchantIdProblem: (value) =>
      /^\d{15}$/.test(value) ? undefined : "must be the 15 digits of the Clearhaus merchant_id (with leading zeros)",
    currenciesProblem: anyCurrencyAccepted,
    hints: { acquirerMerchantId: "Clearhaus: the 15-digit merchant_id", descriptor: "Clearhaus: 2–22 ASCII characters, not all digits." },
  },
  capabilities: { payouts: true, merchantInitiated: true, severalCaptures: true, cardUpdates: true },
  testCards: CLEARHAUS_TEST_CARDS,
  declineCodes: CLEARHAUS_DECLINE_CODES,
  routingRank: 2,
  environment: { variables: clearhausMerchantApiVariables, legacyCredentials: { apiKey: "CLEARHAUS_API_KEY" } },
  legacyImport: {
    merchantIdOption: "15 digits",
    async acquirerMerchantId(_credentials, given, check) {
      if (given) return given;
      const answer = await check();
      const merchantId = answer.details?.merchant_id;
      if (!answer.ok || !merchantId) throw new Error(`Clearhaus did not give its merchant_id (${answer.message}): pass --clearhaus-merchant-id`);
      return merchantId;
    },
  },
  createConnector: ({ baseUrl, timeoutMs, sandbox }) => createClearhausConnector({ baseUrl, timeoutMs, sandboxExtensions: sandbox?.extensions ?? false }),
  // Disputes and settlements: the Merchant API beside the Gateway API (issue 40).
  reporting: clearhausReporting,
};
