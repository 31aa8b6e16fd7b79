// PostgreSQL refuses U+0000 in text (and jsonb): a value holding one fails its whole statement. Input
// with one is refused at the edges (lib/validation/parse-input.ts, the back office's formObject);
// what the service keeps as it came (a request body in the request log, a receiver's answer) goes
// through here, with the character replaced by U+FFFD, as a reader would see an unreadable byte.

export const NUL = "\u0000";

/** `value` with every U+0000 replaced by U+FFFD (unchanged, and not copied, when it has none). */
export function textForPostgres<T extends string | null | undefined>(value: T): T {
  return (typeof value === "string" && value.includes(NUL) ? value.replaceAll(NUL, "\uFFFD") : value) as T;
}
