// Every code Finaro's public references document, in one of the routing's decline classes
// (docs/acquirers.md, "Decline classes"; decision 0190). An answer carries two: `z2`, the gateway's
// result ([MK-CR] RESULT_CODES, [SDK-CR] ResultCode, the processor codes of [PL]), and on an issuer's
// answer `z6`, the ISO 8583 reason from the scheme or issuer ([AM-CR] RESPONSE_MESSAGES, read at
// activemerchant/active_merchant@02cdd15 credorax.rb). The z6 decides when the answer has one: it is
// the issuer's own word; the z2 decides otherwise. Their classes: z6 by the schemes' re-attempt rules
// (lib/acquirers/plumbing/iso-decline-classes.ts), z2 by what the gateway says it did.
import type { DeclineClass, DeclineCodeMeaning } from "../contract";
import { declineEntryMaker } from "../plumbing/decline-table";
import { isoDeclineClass } from "../plumbing/iso-decline-classes";

const Z2_SOURCE = "[MK-CR] RESULT_CODES; [SDK-CR] ResultCode";
const PL = "[PL] processor error list";
const Z6_SOURCE = "[AM-CR] RESPONSE_MESSAGES (activemerchant/active_merchant@02cdd15)";

const z2 = declineEntryMaker(Z2_SOURCE, "Z2=");

/** The gateway's results (`z2`). Negative values: the gateway refused the request before any issuer saw it. */
const Z2_CODES: readonly DeclineCodeMeaning[] = [
  z2("0", "approved", "Transaction has been executed successfully", "the only approval"),
  z2("1", "declined-soft", "Transaction has been denied by the Gate", "Finaro's own rules; another acquirer's may differ"),
  z2("2", "declined-soft", "Transaction has been denied by the Gate due to a high fraud score", "Finaro's own scoring"),
  z2("03", "declined-soft", "Transaction has been denied by the Gate due to a AVS rules", "Finaro's own rules"),
  z2("04", "technical", "Transaction has been denied by the Gate due to an interchange timeout", "the scheme's answer never came: looked up"),
  z2("05", "declined-soft", "Transaction has been declined.", "the issuer's reason is z6 (its class decides)"),
  z2("06", "technical", "3-D Secure challenge required (Finaro-run 3-D Secure)", "a step of Finaro's 3-D Secure, never asked for", "[MAG-CR] Response/AbstractPayment.php"),
  z2("7", "technical", "Redirect URL issued, see field z11", "a step of Finaro's 3-D Secure, never asked for"),
  z2("9", "declined-hard", "Transaction has been denied by the Gate due to the LUHN check failure", "an invalid card number (ISO 14)"),
  z2("10", "declined-soft", "Transaction partially approved", "the partial hold is voided; another acquirer may approve the whole amount"),
  z2("100", "technical", "Transaction is 3D enrolled", "legacy Finaro-run 3-D Secure, never asked for"),
  z2("-1", "technical", "Account already exists", "an account operation, not an issuer's answer"),
  z2("-2", "technical", "Account does not exist", "an account operation, not an issuer's answer"),
  z2("-3", "technical", "Account status was not updated", "an account operation, not an issuer's answer"),
  z2("-5", "technical", "Transaction has been rejected. Processing has been stopped.", "refused before any issuer saw it"),
  z2("-7", "technical", "No Response from the Gateway. Connection is broken", "whether it acted is unknown: looked up"),
  z2("-8", "technical", "Package Signature is malformed", "refused before any issuer saw it"),
  z2("-9", "technical", "Parameter is malformed", "refused before any issuer saw it"),
  z2("-10", "technical", "Unclassified Error", "refused before any issuer saw it"),
  z2("-11", "technical", "Currency is not supported for the given merchant", "this account cannot take it; another may"),
  z2("-12", "technical", "Card Secure Code has to be present", "refused before any issuer saw it"),
  z2("-13", "authentication-required", "Transaction must include valid 3D secure data", "3-D Secure may win it"),
  z2("-33", "technical", "You need to be registered with …", "an account set-up refusal", PL),
  z2("-35", "technical", "The selected MID is not registered to your account.", "an account set-up refusal", PL),
  z2("-36", "technical", "The selected Processor does not support some of the transaction's parameters.", "refused before any issuer saw it", PL),
  z2("-37", "technical", "Transaction has been denied. Malformed or missing {} parameter.", "refused before any issuer saw it", PL),
  z2("-38", "declined-soft", "The transaction has been denied by the Gateway because 3D secure Authentication failed.", "an authentication for another account may succeed", PL),
  z2("-39", "technical", "You need to be registered with the 3D Adviser service", "an account set-up refusal", PL),
  z2("-50", "technical", "An error occurred during the 3D secure process", "nothing decided about the card", PL),
  z2("-63", "technical", "The requested gateway mid is not enrolled to 3D-secure service.", "an account set-up refusal", PL),
  z2("-64", "technical", "TRA exemption is not allowed for this transaction amount", "an exemption refusal (we request none)", PL),
  z2("-65", "technical", "Gateway MID is not allowed for this exemption", "an exemption refusal (we request none)", PL),
  z2("-66", "technical", "Invalid combination of 3ds_initiate and exemption_action values", "refused before any issuer saw it", PL),
  z2("-68", "technical", "Authentication process timed out. Please try again.", "nothing decided about the card", PL),
  z2("-69", "technical", "Transaction has been declined. Invalid 3ds_version parameter.", "refused before any issuer saw it", PL),
];

/** [AM-CR] RESPONSE_MESSAGES: the z6 texts, in its order. */
const Z6_MEANINGS: ReadonlyArray<readonly [string, string]> = [
  ["00", "Approved or completed successfully"],
  ["01", "Refer to card issuer"],
  ["02", "Refer to card issuer special condition"],
  ["03", "Invalid merchant"],
  ["04", "Pick up card"],
  ["05", "Do not Honour"],
  ["06", "Error"],
  ["07", "Pick up card special condition"],
  ["08", "Honour with identification"],
  ["09", "Request in progress"],
  ["10", "Approved for partial amount"],
  ["11", "Approved (VIP)"],
  ["12", "Invalid transaction"],
  ["13", "Invalid amount"],
  ["14", "Invalid card number"],
  ["15", "No such issuer"],
  ["16", "Approved, update track 3"],
  ["17", "Customer cancellation"],
  ["18", "Customer dispute"],
  ["19", "Re-enter transaction"],
  ["20", "Invalid response"],
  ["21", "No action taken"],
  ["22", "Suspected malfunction"],
  ["23", "Unacceptable transaction fee"],
  ["24", "File update not supported by receiver"],
  ["25", "No such record"],
  ["26", "Duplicate record update, old record replaced"],
  ["27", "File update field edit error"],
  ["28", "File locked out while update"],
  ["29", "File update error, contact acquirer"],
  ["30", "Format error"],
  ["31", "Issuer signed-off"],
  ["32", "Completed partially"],
  ["33", "Pick-up, expired card"],
  ["34", "Implausible card data"],
  ["35", "Pick-up, card acceptor contact acquirer"],
  ["36", "Pick up, card restricted"],
  ["37", "Pick up, call acquirer security"],
  ["38", "Pick up, Allowable PIN tries exceeded"],
  ["39", "No credit account"],
  ["40", "Requested function not supported"],
  ["41", "Lost Card, Pickup"],
  ["42", "No universal account"],
  ["43", "Pick up, stolen card"],
  ["44", "No investment account"],
  ["46", "Closed account"],
  ["50", "Do not renew"],
  ["51", "Insufficient funds"],
  ["52", "No checking Account"],
  ["53", "No savings account"],
  ["54", "Expired card"],
  ["55", "Incorrect PIN"],
  ["56", "No card record"],
  ["57", "Transaction not allowed for cardholder"],
  ["58", "Transaction not permitted to terminal"],
  ["59", "Suspected Fraud"],
  ["60", "Card acceptor contact acquirer"],
  ["61", "Exceeds withdrawal amount limit"],
  ["62", "Restricted card"],
  ["63", "Security violation"],
  ["64", "Wrong original amount"],
  ["65", "Activity count limit exceeded"],
  ["66", "Call acquirers security department"],
  ["67", "Card to be picked up at ATM"],
  ["68", "Response received too late."],
  ["70", "PIN data required"],
  ["71", "Decline PIN not changed"],
  ["75", "Pin tries exceeded"],
  ["76", "Wrong PIN, number of PIN tries exceeded"],
  ["77", "Wrong Reference No."],
  ["78", "Blocked, first used/ Record not found"],
  ["79", "Declined due to lifecycle event"],
  ["80", "Network error"],
  ["81", "PIN cryptographic error"],
  ["82", "Bad CVV/ Declined due to policy event"],
  ["83", "Transaction failed"],
  ["84", "Pre-authorization timed out"],
  ["85", "No reason to decline"],
  ["86", "Cannot verify pin"],
  ["87", "Purchase amount only, no cashback allowed"],
  ["88", "Cryptographic failure"],
  ["89", "Authentication failure"],
  ["91", "Issuer not available"],
  ["92", "Unable to route at acquirer Module"],
  ["93", "Cannot be completed, violation of law"],
  ["94", "Duplicate Transmission"],
  ["95", "Reconcile error / Auth Not found"],
  ["96", "System malfunction"],
  ["97", "Transaction has been declined by the processor"],
  ["N3", "Cash service not available"],
  ["N4", "Cash request exceeds issuer or approved limit"],
  ["N7", "CVV2 failure"],
  ["R0", "Stop Payment Order"],
  ["R1", "Revocation of Authorisation Order"],
  ["R3", "Revocation of all Authorisation Orders"],
  ["1A", "Strong Customer Authentication required"],
];

const Z6_CODES: readonly DeclineCodeMeaning[] = Z6_MEANINGS.map(([code, meaning]) => {
  const iso = isoDeclineClass(code);
  return { code: `Z6=${code}`, class: iso.class, meaning, source: `${Z6_SOURCE}; ${iso.rule}` };
});

export const FINARO_DECLINE_CODES: readonly DeclineCodeMeaning[] = [...Z2_CODES, ...Z6_CODES];

const BY_CODE = new Map(FINARO_DECLINE_CODES.map((meaning) => [meaning.code, meaning]));

/** A z2 as Finaro writes it ("05", "-9", "0") in the form of the table's keys ("05" and "5" are one code). */
function z2Key(value: string): string | undefined {
  const number = Number(value);
  if (!Number.isInteger(number)) return undefined;
  return Z2_CODES.find((meaning) => Number(meaning.code.slice(3)) === number)?.code;
}

/**
 * The class of a Finaro answer: its z6 when the answer has one Finaro's references document, else
 * its z2; a code in neither is declined-soft, and `documented` is false so that the result says so.
 */
export function finaroDeclineClass(answer: { z2: string; z6?: string }): { class: DeclineClass; documented: boolean } {
  if (Number(answer.z2) === 0) return { class: "approved", documented: true };
  const byZ6 = answer.z6 ? BY_CODE.get(`Z6=${answer.z6}`) : undefined;
  // An approval code in z6 of an answer whose z2 did not approve is not an approval: the z2 decides.
  if (byZ6 && byZ6.class !== "approved") return { class: byZ6.class, documented: true };
  const key = z2Key(answer.z2);
  const byZ2 = key ? BY_CODE.get(key) : undefined;
  if (byZ2) return { class: byZ2.class, documented: !answer.z6 || Boolean(byZ6) };
  return { class: "declined-soft", documented: false };
}
