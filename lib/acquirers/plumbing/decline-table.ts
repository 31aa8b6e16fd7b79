// The pieces of an acquirer's decline table (decision 0190) that do not depend on the acquirer: how
// an entry is written, and how a code is looked up in it. A code the table does not list is
// declined-soft (the next acquirer is tried), and the look-up says it is not documented.
import type { DeclineClass, DeclineCodeMeaning } from "../contract";

/**
 * The entry maker of a table whose entries come from `defaultSource` unless they name another; an
 * entry's source is its reference and, after it, why the code is in its class. `prefix` goes before
 * every code (Finaro's "Z2=").
 */
export function declineEntryMaker(defaultSource: string, prefix = "") {
  return (code: number | string, cls: DeclineClass, meaning: string, why: string, source = defaultSource): DeclineCodeMeaning => ({
    code: `${prefix}${code}`,
    class: cls,
    meaning,
    source: `${source}; ${why}`,
  });
}

/** The look-up of a code, written as the table writes it, in `table`. */
export function declineClassLookup(table: readonly DeclineCodeMeaning[]) {
  const byCode = new Map(table.map((meaning) => [meaning.code, meaning]));
  return (code: string | undefined): { class: DeclineClass; documented: boolean } => {
    const found = code === undefined ? undefined : byCode.get(code);
    return found ? { class: found.class, documented: true } : { class: "declined-soft", documented: false };
  };
}
