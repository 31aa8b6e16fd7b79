// Free text on its way to a log (an error message, a stack) with every run of 8 to 19 digits (the
// lengths CardDetails accepts; spaces or dashes allowed between them) replaced: defence in depth
// behind the rule that card data never reaches a message in the first place. What the service shows of a card number is
// truncateCardNumber (./truncate-card-number.ts); this is for text whose content is not ours.

const CARD_NUMBER_LIKE = /\d(?:[ -]?\d){7,18}/g;
/**
 * The service's own ids (lib/ids.ts: 32 lowercase hex characters, standing alone). About one in four
 * holds a run of 8 digits, which the pattern above would mangle, so an operator's alert would name
 * an operation nobody can find. An id with at least one letter is never a card number; a token that
 * is all digits is still redacted.
 */
const OWN_ID_OR_CARD_NUMBER_LIKE = /(?<![0-9A-Za-z])[0-9a-f]{32}(?![0-9A-Za-z])|\d(?:[ -]?\d){7,18}/g;

export function redactCardNumbers(text: string): string {
  return text.replace(OWN_ID_OR_CARD_NUMBER_LIKE, (match) =>
    match.length === 32 && /[a-f]/.test(match) ? match : match.replace(CARD_NUMBER_LIKE, "[redacted digits]"),
  );
}

/** An error as one log line: its name and message (first line), card-number-like digits redacted. */
export function describeErrorForLog(error: unknown): string {
  const text = error instanceof Error ? `${error.name}: ${error.message.split("\n")[0] ?? ""}` : typeof error;
  return redactCardNumbers(text);
}
