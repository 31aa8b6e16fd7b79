// Bambora North America Payments API v1 (docs/acquirers.md, "Bambora"): JSON with a passcode per API.
import type { AcquirerModule } from "../contract";
import { descriptorLengthProblem } from "../plumbing/account-rules";
import { createBamboraConnector } from "./client";
import { BAMBORA_CREDENTIAL_FIELDS, bamboraCredentials, type BamboraCredentials } from "./credentials";
import { BAMBORA_TEST_CARDS } from "./test-cards";
import { BAMBORA_CURRENCIES, isBamboraCurrency } from "./transformers";
import { BAMBORA_DECLINE_CODES } from "./decline-classes";
import { worldlineEndpointVariables, worldlinePlatform, type WorldlineEndpointVariables } from "./worldline/platform";

export const bambora: AcquirerModule<BamboraCredentials, WorldlineEndpointVariables> = {
  name: "bambora",
  credentials: { schema: bamboraCredentials, fields: BAMBORA_CREDENTIAL_FIELDS },
  accountRules: {
    // No descriptor goes with a payment (PaymentRequest has none; it is set when the account is
    // boarded): the account's text is kept for the back office, within the schemes' 25 characters.
    descriptorProblem: (descriptor) => descriptorLengthProblem(descriptor, 1, 25, "Bambora"),
    // Merchant ids are 9 digits ("300200578").
    acquirerMerchantIdProblem: (value) => (/^\d{9}$/.test(value) ? undefined : "must be the 9 digits of the Bambora merchant id"),
    // An account settles its processor's one currency, CAD or USD (the API has no currency field).
    currenciesProblem: (value) =>
      value.anyCurrency || value.currencies.length !== 1 || !isBamboraCurrency(value.currencies[0]!)
        ? "a Bambora North America account takes its one currency, CAD or USD: name it (e.g. CAD)"
        : undefined,
    onlyCurrencies: BAMBORA_CURRENCIES,
    hints: {
      acquirerMerchantId: "Bambora: the 9-digit merchant id",
      descriptor: "Bambora: 1–25 ASCII characters, kept for the back office (Bambora sets the descriptor when it boards the account).",
    },
  },
  // No payout operation; merchant-initiated card-on-file types "must be a purchase only"; a second
  // completion of a pre-authorization is answered 203 "Pre-Authorization already completed"; no
  // account updater (docs/acquirers/references/bambora-choice.md).
  capabilities: { payouts: false, merchantInitiated: false, severalCaptures: false, cardUpdates: false },
  testCards: BAMBORA_TEST_CARDS,
  declineCodes: BAMBORA_DECLINE_CODES,
  routingRank: 3,
  environment: {
    variables: worldlineEndpointVariables,
    // Bambora Online Checkout credentials of earlier versions: the connector now speaks Bambora North
    // America's Payments API, which takes a merchant id and passcodes, so these cannot become an account.
    retired: {
      variables: ["BAMBORA_ACCESS_TOKEN", "BAMBORA_MERCHANT_NUMBER", "BAMBORA_SECRET_TOKEN"],
      reason:
        'a Bambora Online Checkout credential, which this version does not use: bambora accounts are Bambora North America accounts (merchant id and passcodes, docs/operations.md, "Bambora North America"). Remove it',
    },
  },
  // Its look-ups are the real API's (the report search, a transaction's adjustments), so a sandbox
  // this process started is asked exactly as Bambora is, and relied on whenever it is the registered one.
  createConnector: ({ baseUrl, timeoutMs, sandbox }) => createBamboraConnector({ baseUrl, timeoutMs, sandboxExtensions: sandbox !== undefined }),
  // Denmark's Bambora is Worldline's acquiring (issue 39): an account on platform "worldline" speaks
  // Worldline Direct; the others (the first platform) Bambora North America, as before.
  platforms: { firstPlatformKey: "north-america", firstPlatformLabel: "Bambora North America", others: { worldline: worldlinePlatform } },
};
