// Xacquirer: REPLACE this line with what the acquirer is and how it is spoken to (docs/acquirers.md).
import type { AcquirerModule } from "../contract";
import { anyCurrencyAccepted, descriptorLengthProblem, emvAcquirerMerchantIdProblem } from "../plumbing/account-rules";
import { createXacquirerConnector, XACQUIRER_NAME } from "./client";
import { XACQUIRER_CREDENTIAL_FIELDS, xacquirerCredentials, type XacquirerCredentials } from "./credentials";
import { XACQUIRER_DECLINE_CODES } from "./decline-classes";
import { XACQUIRER_TEST_CARDS } from "./test-cards";

export const xacquirer: AcquirerModule<XacquirerCredentials> = {
  name: XACQUIRER_NAME,
  credentials: { schema: xacquirerCredentials, fields: XACQUIRER_CREDENTIAL_FIELDS },
  // REPLACE with the acquirer's limits: its descriptor, its merchant ids, the currencies an account takes.
  accountRules: {
    descriptorProblem: (descriptor) => descriptorLengthProblem(descriptor, 1, 25, "Xacquirer"),
    acquirerMerchantIdProblem: emvAcquirerMerchantIdProblem,
    currenciesProblem: anyCurrencyAccepted,
    hints: { acquirerMerchantId: "Xacquirer: the merchant id", descriptor: "Xacquirer: 1–25 ASCII characters." },
  },
  // Say what the connector's methods say (the conformance kit holds the two equal).
  capabilities: { payouts: true, merchantInitiated: true, severalCaptures: true, cardUpdates: false },
  testCards: XACQUIRER_TEST_CARDS,
  declineCodes: XACQUIRER_DECLINE_CODES,
  routingRank: 99,
  createConnector: ({ baseUrl, timeoutMs, sandbox }) => createXacquirerConnector({ baseUrl, timeoutMs, sandboxExtensions: sandbox?.extensions ?? false }),
};
