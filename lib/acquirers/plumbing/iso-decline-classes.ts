// The decline class of an ISO 8583 response code (field 39), for acquirers whose answers carry one
// (Finaro's z6) and for our own codes. The classes follow the card schemes' re-attempt rules:
// Visa's response code categories [VISA-CAT] (category 1 "issuer will never approve": do not try
// again; 2 "cannot approve at this time" and 4 generic: may be tried again; 3 "cannot approve with
// these details"), read for routing as decision 0190 says: category 1, the pick-up answers and the
// expired card are declined-hard (routing sends the same card to the same issuer); the cardholder's
// stop orders (R0, R1, R3, category 1 too) are stop-recurring; 1A (category 3) is
// authentication-required; answers that say nothing was decided are technical; the rest, and any
// code without a public meaning, declined-soft.
import type { DeclineClass } from "../contract";

/** [VISA-CAT]: docs/acquirers.md, "Decline classes" (Checkout.com's "Visa response code categories", April 2022). */
export const VISA_CATEGORIES = "[VISA-CAT]";

interface IsoClass {
  class: DeclineClass;
  /** Why, in a few words: the scheme rule or the meaning that decides it. */
  rule: string;
}

const HARD: IsoClass = { class: "declined-hard", rule: `${VISA_CATEGORIES} category 1: the issuer will never approve; do not try again` };
const PICK_UP: IsoClass = { class: "declined-hard", rule: "a pick-up answer: the card is to be retained, like Visa category 1's 04 and 07" };
const EXPIRED: IsoClass = {
  class: "declined-hard",
  rule: `${VISA_CATEGORIES} category 3 (cannot approve with these details): another acquirer gets the same expiry (decision 0190)`,
};
const STOP: IsoClass = { class: "stop-recurring", rule: `${VISA_CATEGORIES} category 1: a stop-payment or revocation order of the cardholder` };
const SCA: IsoClass = { class: "authentication-required", rule: `${VISA_CATEGORIES} category 3: strong customer authentication is required` };
const NOTHING_DECIDED: IsoClass = { class: "technical", rule: "no decision about the card: the message failed or was refused before it" };
const LATER: IsoClass = { class: "declined-soft", rule: `${VISA_CATEGORIES} category 2: the issuer cannot approve at this time` };
const GENERIC: IsoClass = { class: "declined-soft", rule: `${VISA_CATEGORIES} category 4 (generic): a re-attempt is allowed` };
const APPROVED: IsoClass = { class: "approved", rule: "an approval code" };

const CLASSES: Readonly<Record<string, IsoClass>> = {
  "00": APPROVED,
  "08": APPROVED,
  "11": APPROVED,
  "16": APPROVED,
  "85": { class: "approved", rule: "no reason to decline (an account verification's approval)" },
  "03": { class: "declined-soft", rule: `${VISA_CATEGORIES} category 2 (invalid merchant: another acquirer account is another merchant)` },
  "04": HARD,
  "07": HARD,
  "12": HARD,
  "14": HARD,
  "15": HARD,
  "41": HARD,
  "43": HARD,
  "46": HARD,
  "57": HARD,
  "33": PICK_UP,
  "35": PICK_UP,
  "36": PICK_UP,
  "37": PICK_UP,
  "38": PICK_UP,
  "67": PICK_UP,
  "54": EXPIRED,
  "56": { class: "declined-hard", rule: "no card record: like 14 (invalid card number), Visa category 1" },
  R0: STOP,
  R1: STOP,
  R3: STOP,
  "1A": SCA,
  "06": NOTHING_DECIDED,
  "09": NOTHING_DECIDED,
  "20": NOTHING_DECIDED,
  "22": NOTHING_DECIDED,
  "30": NOTHING_DECIDED,
  "68": { class: "technical", rule: "the issuer's answer came too late: whether it acted is looked up" },
  "80": NOTHING_DECIDED,
  "92": { class: "technical", rule: "the acquirer could not route it to the issuer" },
  "94": { class: "technical", rule: "a duplicate transmission: the first may have been processed, so it is looked up" },
  "19": LATER,
  "51": LATER,
  "59": LATER,
  "61": LATER,
  "62": LATER,
  "65": LATER,
  "75": LATER,
  "78": LATER,
  "91": LATER,
  "93": LATER,
  "96": LATER,
  N3: LATER,
  N4: LATER,
};

/**
 * The class of an ISO 8583 response code, and why. A code the schemes' categories do not list falls
 * in Visa's category 4 ("all other decline codes ... re-attempt is allowed"): declined-soft.
 */
export function isoDeclineClass(code: string): IsoClass {
  return CLASSES[code] ?? GENERIC;
}
