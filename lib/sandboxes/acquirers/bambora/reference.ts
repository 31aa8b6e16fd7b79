// What the Bambora North America sandbox answers with, written from the API's documentation
// (bambora-na/dev.na.bambora.com@5f6bc58: data/na/swagger/1-0-5.yaml, source/includes/na/**), never
// from our connector: the gateway messages it uses, the transaction types, the test cards.

/** An ErrorResponse the gateway answers with: HTTP status, gateway code, category, message. */
export interface GatewayMessage {
  status: number;
  code: number;
  /** 1 processed by the bank, 2 business rule violation, 3 input data problem, 4 technical ([BNA-JAVA] BeanstreamApiException). */
  category: 1 | 2 | 3 | 4;
  message: string;
}

const message = (status: number, code: number, category: GatewayMessage["category"], text: string): GatewayMessage => ({
  status,
  code,
  category,
  message: text,
});

/**
 * The gateway messages (includes/na/bank_response_codes/_gateway.md and _emulator.md) with the
 * HTTP status of their kind (swagger responses: 400 BadRequest, 401 Unauthorized, 402 "Business Rule
 * Violation or Decline", 403 Forbidden). Where the docs give a code but not its category or status,
 * the pairing is this sandbox's reading (docs/acquirers.md, "Bambora", sandbox notes).
 */
export const GATEWAY = {
  decline: message(402, 7, 1, "DECLINE"),
  invalidExpiry: message(400, 14, 3, "Invalid expiration date"),
  invalidCardNumber: message(400, 52, 3, "Invalid Card Number"),
  noAvailableDevice: message(402, 54, 1, "Transaction timeout - No available device"),
  noTransactionResponse: message(402, 55, 1, "Transaction timeout - No transaction Response"),
  declinedTimeout: message(402, 158, 1, "Declined - TIMEOUT"),
  invalidAmount: message(402, 191, 2, "Invalid Transaction Amount"),
  voidAfterReturn: message(402, 192, 2, "Transaction cannot be voided after being returned"),
  amountMismatch: message(402, 193, 2, "Amount does not match the transaction you are modifying."),
  exceedsReturnLimit: message(402, 194, 2, "Transaction exceeds return limit."),
  originalVoided: message(402, 196, 2, "Original purchase transaction has been voided"),
  zeroOrNegative: message(402, 197, 2, "Transactions cannot be adjusted to a zero or negative value"),
  cannotBeAdjusted: message(402, 200, 2, "Transaction cannot be adjusted"),
  alreadyCompleted: message(402, 203, 2, "Pre-Authorization already completed"),
  voidOnlySameDay: message(402, 205, 2, "Transaction only voidable on the date processed"),
  completionOverReserve: message(402, 208, 2, "Completion greater than remaining reserve amount."),
  authenticationFailed: message(401, 317, 2, "Authentication Failed"),
  missingOrInvalid: message(400, 314, 3, "Missing or invalid payment information - Please validate all required payment information."),
  paymentMethodNotAccepted: message(402, 681, 2, "Payment method not accepted on this account"),
  duplicateOrderNumber: message(402, 788, 2, "Duplicate Order Number - This order number has already been processed"),
  authenticationRequired: message(402, 938, 1, "Authentication is required to process this transaction"),
  cannotBeVoided: message(402, 1134, 2, "Transaction cannot be voided"),
  cardOnFileInvalid: message(402, 1136, 2, "Invalid or missing card-on-file request parameters"),
} as const;

/** Transaction types (includes/na/response_codes/_transaction_type.md). */
export type TransactionType = "P" | "PA" | "PAC" | "R" | "VP" | "VR";

/** card.card_type in answers (swagger CardPurchaseResponse.card_type). */
export function cardType(pan: string): "VI" | "MC" | "AM" | "NN" | "JB" | "DI" | undefined {
  if (/^4/.test(pan)) return "VI";
  if (/^(5[1-5]|2[2-7])/.test(pan)) return "MC";
  if (/^3[47]/.test(pan)) return "AM";
  if (/^(6011|65|64[4-9])/.test(pan)) return "NN";
  if (/^35/.test(pan)) return "JB";
  if (/^3(0|6|8)/.test(pan)) return "DI";
  return undefined;
}

/** What a documented test card does (references/payment_APIs/test_cards.md, _test_cards.md, guides/3D_secure_2_0.md). */
export type TestCardBehaviour =
  | { kind: "approve" }
  | { kind: "decline" }
  /** "Approved for transactions less than $100, Declined for transactions higher than $100". */
  | { kind: "amount_rule" }
  /** "Transactions take 45+ seconds to respond", then answer approved, declined or with `message`. */
  | { kind: "slow"; then: "approve" | GatewayMessage };

export const BAMBORA_TEST_CARDS: Readonly<Record<string, TestCardBehaviour>> = {
  // Approved
  "4030000010001234": { kind: "approve" },
  "5100000010001004": { kind: "approve" },
  "2223000048400011": { kind: "approve" },
  "371100001000131": { kind: "approve" },
  "6011500080009080": { kind: "approve" },
  // Declined
  "4003050500040005": { kind: "decline" },
  "5100000020002000": { kind: "decline" },
  "342400001000180": { kind: "decline" },
  "6011000900901111": { kind: "decline" },
  // Test amounts
  "4504481742333": { kind: "amount_rule" },
  // Timeouts: 45+ seconds, then the answer.
  "4485349439401891": { kind: "slow", then: "approve" },
  "5396191225134160": { kind: "slow", then: "approve" },
  "4539939815032280": { kind: "slow", then: GATEWAY.decline },
  "5366520542338805": { kind: "slow", then: GATEWAY.decline },
  "4872385877270993": { kind: "slow", then: GATEWAY.noTransactionResponse },
  "4294215026184763": { kind: "slow", then: GATEWAY.declinedTimeout },
  "4104631199283796": { kind: "slow", then: GATEWAY.noAvailableDevice },
};

/** "Transactions take 45+ seconds to respond." */
export const SLOW_CARD_DELAY_MS = 45_000;

/** Card-on-file types (swagger CardOnFile.type, plus first_unscheduled of guides/credential_on_file). */
export const CARD_ON_FILE_TYPES = [
  "not_card_on_file",
  "first_installment",
  "subsequent_installment",
  "first_recurring",
  "subsequent_recurring",
  "first_unscheduled",
  "subsequent_customer_initiated",
  "subsequent_unscheduled",
] as const;
export type CardOnFileType = (typeof CARD_ON_FILE_TYPES)[number];

/** Merchant-initiated types: "must be a purchase only", series_id required (except once for a series that predates the indicators). */
export const MERCHANT_INITIATED_TYPES: readonly CardOnFileType[] = [
  "subsequent_installment",
  "subsequent_recurring",
  "subsequent_unscheduled",
];
