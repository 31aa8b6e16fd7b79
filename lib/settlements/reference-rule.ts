// Which settlement line references are searched among our operation ids (docs/decisions/0208-
// settlement-lines-matched-by-the-reference-the-connector-sends.md). A module's connector sends our
// id or its first characters (AcquirerReporting.lineReference); the line's reference is then looked
// up as a prefix of our ids on the settlement's account, and only a reference that could be such a
// prefix is: our ids' characters only (so no LIKE wildcard reaches the query) and long enough that
// one prefix names one operation (16 hex characters are 64 bits; an account never holds 2^32 ids).

/** The shortest reference searched as a prefix of our operation ids. */
export const MIN_REFERENCE_PREFIX = 16;

/** `reference` when it can be searched as a prefix of our operation ids; undefined when it cannot name one. */
export function referenceSearchPrefix(reference: string): string | undefined {
  return reference.length >= MIN_REFERENCE_PREFIX && /^[A-Za-z0-9]+$/.test(reference) ? reference : undefined;
}
