// Finaro (Credorax ePower): one signed form POST per operation (docs/acquirers.md, "Finaro").
import { z } from "zod";
import type { AcquirerModule } from "../contract";
import { anyCurrencyAccepted, descriptorLengthProblem, emvAcquirerMerchantIdProblem } from "../plumbing/account-rules";
import { createFinaroConnector } from "./client";
import { FINARO_CREDENTIAL_FIELDS, finaroCredentials, type FinaroCredentials } from "./credentials";
import { FINARO_TEST_CARDS } from "./test-cards";
import { FINARO_DECLINE_CODES } from "./decline-classes";

const variables = z.object({
  /**
   * Whether the connector checks the `K` of Finaro's answers with the request algorithm: "verify" or
   * "ignore" (default). Finaro does not publish how it signs answers; turn it on once Finaro confirms
   * the algorithm for the MIDs (docs/acquirers.md). Our sandbox's answers are always checked.
   */
  FINARO_ANSWER_SIGNATURE: z.enum(["verify", "ignore"]).default("ignore"),
});

export const finaro: AcquirerModule<FinaroCredentials, z.infer<typeof variables>> = {
  name: "finaro",
  credentials: { schema: finaroCredentials, fields: FINARO_CREDENTIAL_FIELDS },
  accountRules: {
    // i2 (ActiveMerchant credorax.rb: billing_descriptor) has no published limit; the card schemes'
    // merchant-name field on the statement holds 25 characters, so no more is kept.
    descriptorProblem: (descriptor) => descriptorLengthProblem(descriptor, 1, 25, "Finaro"),
    acquirerMerchantIdProblem: emvAcquirerMerchantIdProblem,
    currenciesProblem: anyCurrencyAccepted,
    hints: { acquirerMerchantId: "Finaro: the MID, at most 35 characters", descriptor: "Finaro: 1–25 ASCII characters." },
  },
  capabilities: { payouts: true, merchantInitiated: true, severalCaptures: true, cardUpdates: true },
  testCards: FINARO_TEST_CARDS,
  declineCodes: FINARO_DECLINE_CODES,
  routingRank: 1,
  environment: {
    variables,
    legacyCredentials: { merchantId: "FINARO_MERCHANT_ID", signatureKey: "FINARO_SIGNATURE_KEY" },
  },
  legacyImport: { acquirerMerchantId: async (credentials) => credentials.merchantId },
  createConnector: ({ baseUrl, timeoutMs, sandbox, variables }) =>
    createFinaroConnector({
      baseUrl,
      timeoutMs,
      sandboxExtensions: sandbox?.extensions ?? false,
      verifyAnswerSignature: sandbox !== undefined || variables.FINARO_ANSWER_SIGNATURE === "verify",
    }),
};
