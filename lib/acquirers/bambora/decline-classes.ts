// Every gateway message id Bambora North America documents, in one of the routing's decline classes
// (docs/acquirers.md, "Decline classes"; decision 0190). Meanings: [BNA]
// source/includes/na/bank_response_codes/_gateway.md (read at bambora-na/dev.na.bambora.com@06b0cfc),
// and the test emulator's 1 (approved) and 7 (DECLINE) from guides/merchant_quickstart/calling_APIs.md. A message id
// that is an issuer's answer follows the schemes' re-attempt rules ([VISA-CAT]); ids about the
// merchant's account, the request, adjustments, sessions, tokens and batches decided nothing about the
// card. Bambora North America publishes no stop-payment code and takes no merchant-initiated
// authorizations here (capabilities.merchantInitiated false), so it has no stop-recurring entry.
import type { DeclineClass, DeclineCodeMeaning } from "../contract";
import { declineClassLookup, declineEntryMaker } from "../plumbing/decline-table";
import { VISA_CATEGORIES } from "../plumbing/iso-decline-classes";

const GATEWAY = "[BNA] includes/na/bank_response_codes/_gateway.md";
const EMULATOR = "[BNA] guides/merchant_quickstart/calling_APIs.md (the test emulator answers 1 or 7 only)";

const entry = declineEntryMaker(GATEWAY);

const SET_UP = "the merchant account's set-up: nothing decided about the card";
const REQUEST = "the request was refused before any issuer saw it";
const ADJUSTMENT = "a capture, return or void refused: not an authorization's answer";
const UNAVAILABLE = "not processed: another acquirer may be tried";
const LOOK_UP = "whether it was processed is unknown: looked up";
const NOT_CARDS = "a feature this gateway does not use (tokens, profiles, batches, sessions, hosted pages)";

export const BAMBORA_DECLINE_CODES: readonly DeclineCodeMeaning[] = [
  entry(1, "approved", "Approved", "the emulator's approval", EMULATOR),
  entry(7, "declined-soft", "DECLINE", `the emulator's decline, a generic decline (${VISA_CATEGORIES} category 4)`, EMULATOR),
  entry(14, "declined-hard", "Invalid expiration date", "the expiry is the same at every acquirer (decision 0190)"),
  entry(16, "technical", "Duplicate Transaction – This transaction has already been approved", LOOK_UP),
  entry(21, "technical", "Validation is less than the minimum amount", REQUEST),
  entry(22, "technical", "Validation greater than maximum amount", REQUEST),
  entry(26, "declined-hard", "Invalid expiry date", "the expiry is the same at every acquirer (decision 0190)"),
  entry(49, "technical", "Invalid transaction request string", REQUEST),
  entry(50, "technical", "Invalid transaction type", REQUEST),
  entry(51, "declined-soft", "DECLINE (Restricted Card or IP)", `like ISO 62, ${VISA_CATEGORIES} category 2`),
  entry(52, "declined-hard", "Invalid Card Number", `ISO 14, ${VISA_CATEGORIES} category 1`),
  entry(53, "technical", "Application Error - Sending Request", LOOK_UP),
  entry(54, "technical", "Transaction timeout - No available device", LOOK_UP),
  entry(55, "technical", "Transaction timeout - No transaction Response", LOOK_UP),
  entry(56, "technical", "Application Error - Retrieving Response", LOOK_UP),
  entry(59, "technical", "Declined - Operation must be performed by Master Merchant", SET_UP),
  entry(60, "technical", "Declined - Operation restricted through Master Merchant", SET_UP),
  entry(190, "technical", "Unknown transaction response", LOOK_UP),
  entry(191, "technical", "Invalid Transaction Amount", REQUEST),
  entry(192, "technical", "Transaction cannot be voided after being returned", ADJUSTMENT),
  entry(193, "technical", "Amount does not match the transaction you are modifying.", ADJUSTMENT),
  entry(194, "technical", "Transaction exceeds return limit.", ADJUSTMENT),
  entry(195, "technical", "Invalid adjustment amount.", ADJUSTMENT),
  entry(196, "technical", "Original purchase transaction has been voided", ADJUSTMENT),
  entry(197, "technical", "Transactions cannot be adjusted to a zero or negative value", ADJUSTMENT),
  entry(198, "technical", "Zero value transactions cannot be voided", ADJUSTMENT),
  entry(199, "technical", "Credit card does not match original purchase.", ADJUSTMENT),
  entry(200, "technical", "Transaction cannot be adjusted", ADJUSTMENT),
  entry(201, "technical", "Invalid transaction adjustment ID", ADJUSTMENT),
  entry(202, "technical", "Invalid order number", REQUEST),
  entry(203, "technical", "Pre-Authorization already completed", "a repeat of our own completion: looked up"),
  entry(204, "technical", "Declined: Use Pre-Auth Completion", ADJUSTMENT),
  entry(205, "technical", "Transaction only voidable on the date processed", ADJUSTMENT),
  entry(206, "technical", "Account missing terminal id", SET_UP),
  entry(207, "technical", "Invalid merchant id", SET_UP),
  entry(208, "technical", "Completion greater than remaining reserve amount.", ADJUSTMENT),
  entry(209, "technical", "Merchant Account Disabled", SET_UP),
  entry(210, "technical", "Merchant Account Closed", SET_UP),
  entry(211, "technical", "Service Unavailable - Please try again later", UNAVAILABLE),
  entry(212, "technical", "Service Unavailable - Please try again later", UNAVAILABLE),
  entry(214, "declined-soft", "Transaction reversed", "reversed after its answer: nothing is held"),
  entry(215, "declined-soft", "Address Validation Failed", "the merchant's address rules"),
  entry(217, "declined-soft", "DECLINE (Transaction Declined TR)", `a generic decline (${VISA_CATEGORIES} category 4)`),
  entry(218, "declined-soft", "DECLINE (Transaction Declined AC)", `a generic decline (${VISA_CATEGORIES} category 4)`),
  ...[297, 298, 299, 300, 301, 302, 303, 304, 305, 306, 307, 308, 309, 310].map((code) =>
    entry(code, "technical", "Service Unavailable - Please try again later", UNAVAILABLE),
  ),
  entry(311, "declined-soft", "3D Secure Failed", "an authentication for another account may succeed"),
  entry(312, "technical", "Card type not accepted", "this account cannot take the scheme; another may"),
  entry(313, "declined-soft", "DECLINE (Over sales limit)", "the merchant account's limit; another acquirer's may differ"),
  entry(314, "technical", "Missing or invalid payment information", REQUEST),
  entry(315, "technical", "HTTPS Connection Required", REQUEST),
  entry(316, "technical", "Invalid transaction validation type", REQUEST),
  entry(317, "technical", "Authentication Failed (CALL HELP DESK)", SET_UP),
  entry(318, "technical", "No transaction request data received", REQUEST),
  entry(319, "technical", "Transaction Declined - Restricted transaction type", SET_UP),
  entry(320, "technical", "Missing errorPage URL", NOT_CARDS),
  entry(321, "technical", "Missing or invalid return URL", NOT_CARDS),
  entry(322, "technical", "Transaction amount does not match inventory calculation", NOT_CARDS),
  entry(323, "technical", "One or more products not found in inventory", NOT_CARDS),
  entry(324, "technical", "Invalid product quantity", NOT_CARDS),
  entry(325, "technical", "File Transfer Approved", NOT_CARDS),
  entry(326, "declined-soft", "Declined - Invalid bank account", "a bank-account payment's decline"),
  entry(558, "declined-soft", "Decline", `a generic decline (${VISA_CATEGORIES} category 4)`),
  entry(559, "technical", "No Transaction Found", "a look-up's answer"),
  entry(560, "technical", "Transaction In Process", LOOK_UP),
  entry(632, "declined-soft", "Max number of recurring billing accounts reached", NOT_CARDS),
  entry(674, "declined-soft", "Payment declined", `a generic decline (${VISA_CATEGORIES} category 4)`),
  entry(681, "technical", "Payment method not accepted on this account", SET_UP),
  entry(682, "declined-soft", "Decline", `a generic decline (${VISA_CATEGORIES} category 4)`),
  entry(683, "technical", "Declined. Missing or invalid merchant data.", SET_UP),
  entry(760, "technical", "Multiple Transaction Matches Found", "a look-up's answer"),
  entry(761, "declined-soft", "Payment Cancelled", NOT_CARDS),
  entry(762, "technical", "Expired session. Transaction not completed in allocated time.", NOT_CARDS),
  entry(788, "technical", "Duplicate Order Number - This order number has already been processed", LOOK_UP),
  entry(789, "technical", "Card Number Mismatch", ADJUSTMENT),
  entry(792, "authentication-required", "Credit card must support 3D Secure VBV or SecureCode", "3-D Secure may win it"),
  entry(793, "declined-soft", "Address validation failed. Transaction reversed.", "the merchant's address rules; nothing is held"),
  entry(800, "technical", "Invalid customer code (token)", NOT_CARDS),
  entry(801, "technical", "Card number missing for given customer code (token)", NOT_CARDS),
  entry(802, "technical", "Declined HASH EXPIRED", NOT_CARDS),
  entry(804, "declined-soft", "Declined - Entered Information Cannot Be Authenticated", "an authentication for another account may succeed"),
  ...[807, 808, 809, 810].map((code) => entry(code, "technical", "Batch close (its result)", NOT_CARDS)),
  entry(811, "technical", "Insufficient user permission for processing payment transactions", SET_UP),
  entry(812, "technical", "Insufficient user permission for processing refund transactions", SET_UP),
  ...[813, 814, 815].map((code) => entry(code, "technical", "User session expired or invalid", NOT_CARDS)),
  ...[816, 817, 818].map((code) => entry(code, "technical", "Card track data cannot be read", NOT_CARDS)),
  entry(819, "technical", "Missing AVS and CVD data required for Discover transaction", REQUEST),
  entry(820, "technical", "Invalid use of trnAmount field", NOT_CARDS),
  entry(821, "declined-soft", "Declined (CVD mismatch. Transaction reversed)", `ISO N7, ${VISA_CATEGORIES} category 3: a re-attempt is allowed`),
  entry(822, "declined-soft", "Declined (AVS mismatch. Transaction reversed)", "the merchant's address rules; nothing is held"),
  entry(825, "technical", "Missing or invalid term URL", NOT_CARDS),
  entry(827, "declined-soft", "Declined", `a generic decline (${VISA_CATEGORIES} category 4)`),
  entry(935, "technical", "Adjustment failed, please wait one minute and retry", UNAVAILABLE),
  entry(936, "technical", "Invalid or expired single use token", NOT_CARDS),
  entry(937, "technical", "Single use token service unavailable", NOT_CARDS),
  entry(938, "authentication-required", "Authentication is required to process this transaction", "3-D Secure may win it"),
  ...[940, 941, 942].map((code) => entry(code, "technical", "Masterpass (DECLINE)", NOT_CARDS)),
  entry(944, "technical", "Card entry method not accepted", SET_UP),
  entry(1134, "technical", "Transaction cannot be voided", ADJUSTMENT),
  entry(1135, "technical", "Amount in the request does not match the amount in the payment token.", NOT_CARDS),
  entry(1136, "technical", "Invalid or missing card-on-file request parameters", REQUEST),
  entry(1137, "technical", "You are not authorized to process card-on-file transactions through this account.", SET_UP),
  ...[1194, 1195, 1196, 1197, 1198].map((code) => entry(code, "technical", "Payment token refused (signature, expiry, merchant)", NOT_CARDS)),
];

const lookUp = declineClassLookup(BAMBORA_DECLINE_CODES);

/** The class of a Bambora message id; an id the gateway table does not list is declined-soft, and the result says so. */
export function bamboraDeclineClass(code: number | string | undefined): { class: DeclineClass; documented: boolean } {
  return lookUp(code === undefined ? undefined : String(Number(code)));
}
