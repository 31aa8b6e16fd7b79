// Free text on its way to a log (an error message, a stack, a path, a body) with every card number
// in it replaced: defence in depth behind the rule that card data never reaches a message in the
// first place. What the service shows of a card number is truncateCardNumber
// (./truncate-card-number.ts); this is for text whose content is not ours.
//
// A card number is a run of 12 to 19 digits (single spaces or dashes allowed between them, as people
// group them) that passes the Luhn check and starts as a card of a scheme does (2221-2720, 3, 4, 5
// or 6: Mastercard, Amex, Diners, JCB, Visa, Maestro, Discover, UnionPay). Other numbers stay
// readable: order ids (`cl1795853171805`), timestamps (`1767225600123`), migration names
// (`20250101120000_init`) and dates are not card numbers, and an operator must be able to read and
// search them. A run that holds a card number with more digits glued on (a PAN with its security
// code, two PANs) is redacted whole.
import { isLuhnValid } from "./luhn";

/** Runs of digits with at most one space or dash between two digits. */
const DIGIT_RUN = /\d(?:[ -]?\d)*/g;
/**
 * The service's own ids (lib/ids.ts: 32 lowercase hex characters, standing alone) are never card
 * numbers; an id with at least one letter is skipped whole, so that its digits are not read as a run.
 */
const OWN_ID_OR_DIGIT_RUN = /(?<![0-9A-Za-z])[0-9a-f]{32}(?![0-9A-Za-z])|\d(?:[ -]?\d)*/g;

const MIN_LENGTH = 12;
const MAX_LENGTH = 19;
export const REDACTED_DIGITS = "[redacted digits]";

function startsAsACard(digits: string): boolean {
  const first = digits[0];
  if (first === "3" || first === "4" || first === "5" || first === "6") return true;
  if (first !== "2") return false;
  const four = Number(digits.slice(0, 4));
  return four >= 2221 && four <= 2720;
}

/** True when the digits (separators removed) are a card number as above. */
export function isCardNumber(digits: string): boolean {
  return digits.length >= MIN_LENGTH && digits.length <= MAX_LENGTH && startsAsACard(digits) && isLuhnValid(digits);
}

/** True when the run (separators kept) is, or holds, a card number. */
function holdsCardNumber(run: string): boolean {
  const digits = run.replace(/[ -]/g, "");
  if (digits.length < MIN_LENGTH) return false;
  if (isCardNumber(digits)) return true;
  // A grouped number with one more group before or after it ("4111 1111 1111 1111 123").
  const groups = run.split(/[ -]/);
  if (groups.length > 1) {
    if (isCardNumber(groups.slice(0, -1).join(""))) return true;
    if (isCardNumber(groups.slice(1).join(""))) return true;
  }
  // Longer than any card number: digits glued to one (two PANs, a PAN and its code).
  if (digits.length > MAX_LENGTH) {
    for (let start = 0; start + MIN_LENGTH <= digits.length; start++) {
      for (let length = MIN_LENGTH; length <= MAX_LENGTH && start + length <= digits.length; length++) {
        if (isCardNumber(digits.slice(start, start + length))) return true;
      }
    }
  }
  return false;
}

export function redactCardNumbers(text: string): string {
  return text.replace(OWN_ID_OR_DIGIT_RUN, (match) => {
    if (match.length === 32 && /[a-f]/.test(match)) return match;
    return match.replace(DIGIT_RUN, (run) => (holdsCardNumber(run) ? REDACTED_DIGITS : run));
  });
}

/** An error as one log line: its name and message (first line), card numbers redacted. */
export function describeErrorForLog(error: unknown): string {
  const text = error instanceof Error ? `${error.name}: ${error.message.split("\n")[0] ?? ""}` : typeof error;
  return redactCardNumbers(text);
}
