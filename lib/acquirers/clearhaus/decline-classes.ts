// Every status code Clearhaus documents, in one of the routing's decline classes (docs/acquirers.md,
// "Decline classes"; decision 0190). Meanings: [CH] api_reference/transaction_status/
// transaction_status_codes_table.md ("Status code 20000 is the only code for which the transaction is
// approved"); 40420's "halt all future merchant-initiated-transactions on this card" is
// [CH] api_reference/transaction_status/merchant_blocked_by_cardholder_status.md. The class of an issuer's
// answer follows the ISO code it stands for ([VISA-CAT], lib/acquirers/plumbing/iso-decline-classes.ts);
// a refusal of Clearhaus' own (input, rules, 3-D Secure data) decided nothing about the card.
import type { DeclineClass, DeclineCodeMeaning } from "../contract";
import { declineClassLookup, declineEntryMaker } from "../plumbing/decline-table";
import { VISA_CATEGORIES } from "../plumbing/iso-decline-classes";

const CODES_TABLE = "[CH] api_reference/transaction_status/transaction_status_codes_table.md";

const entry = declineEntryMaker(CODES_TABLE);

export const CLEARHAUS_DECLINE_CODES: readonly DeclineCodeMeaning[] = [
  entry(20000, "approved", "Approved", "the only approval"),
  entry(40000, "technical", "General input error", "Clearhaus refused the request: nothing decided about the card"),
  entry(40110, "declined-hard", "Invalid card number", `ISO 14, ${VISA_CATEGORIES} category 1`),
  entry(40111, "technical", "Unsupported card scheme", "this acquirer cannot take the scheme; another may"),
  entry(40120, "declined-soft", "Invalid CSC", `ISO N7, ${VISA_CATEGORIES} category 3: a re-attempt is allowed`),
  entry(40130, "declined-hard", "Invalid expire date", "the expiry is the same at every acquirer, like 54 (decision 0190)"),
  entry(40135, "declined-hard", "Card expired", `ISO 54: another acquirer gets the same expiry (decision 0190)`),
  entry(40140, "technical", "Invalid currency", "refused before any issuer saw it"),
  entry(40150, "technical", "Invalid text on statement", "refused before any issuer saw it"),
  entry(40200, "declined-soft", "Clearhaus rule violation", "the account's own transaction rules: another acquirer's may differ"),
  entry(40300, "technical", "3-D Secure problem", "the 3-D Secure data was not accepted: nothing decided about the card"),
  entry(40310, "declined-soft", "3-D Secure authentication failure", "an authentication for another account may succeed"),
  entry(40400, "technical", "Backend problem", "nothing is held (\"for the other codes the transaction is declined\")"),
  entry(40410, "declined-soft", "Declined by issuer or card scheme", `ISO 05, ${VISA_CATEGORIES} category 4`),
  entry(40411, "declined-soft", "Card restricted", `ISO 62, ${VISA_CATEGORIES} category 2`),
  entry(40412, "declined-hard", "Card lost or stolen", `ISO 41/43, ${VISA_CATEGORIES} category 1`),
  entry(40413, "declined-soft", "Insufficient funds", `ISO 51, ${VISA_CATEGORIES} category 2`),
  entry(40414, "declined-soft", "Suspected fraud", `ISO 59, ${VISA_CATEGORIES} category 2`),
  entry(40415, "declined-soft", "Amount limit exceeded", `ISO 61, ${VISA_CATEGORIES} category 2`),
  entry(40416, "authentication-required", "Additional authentication required", `ISO 1A, ${VISA_CATEGORIES} category 3`),
  entry(
    40420,
    "stop-recurring",
    "Merchant blocked by cardholder",
    "\"both a decline of the current authorization, but also a notice to halt all future merchant-initiated-transactions on this card\"",
    "[CH] api_reference/transaction_status/merchant_blocked_by_cardholder_status.md",
  ),
  entry(50000, "technical", "Clearhaus error", "an authorization with it may hold funds: it is voided before the routing goes on"),
];

const lookUp = declineClassLookup(CLEARHAUS_DECLINE_CODES);

/** The class of a Clearhaus status code; a code Clearhaus does not document is declined-soft, and the result says so. */
export function clearhausDeclineClass(code: number): { class: DeclineClass; documented: boolean } {
  return lookUp(String(code));
}
