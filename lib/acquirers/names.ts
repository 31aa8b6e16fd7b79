// The acquirers this gateway speaks to: the only list of their names (the spec's `processor` values
// and the database enum `Processor`, which tests/unit/acquirers/names.test.ts holds equal) with the
// label people see. A new acquirer is one line here and one in ./index.ts. A leaf: it imports
// nothing, so kernels (validation, env) and the sandboxes may read it; every other fact about an
// acquirer lives in its module (./<name>/index.ts).
const LABELS = {
  finaro: "Finaro",
  clearhaus: "Clearhaus",
  bambora: "Bambora North America",
} as const;

export type AcquirerName = keyof typeof LABELS;

/** The names, in the order messages and lists give them. */
export const ACQUIRER_NAMES = Object.keys(LABELS) as [AcquirerName, ...AcquirerName[]];

/** What the back office and the docs call each acquirer. */
export const ACQUIRER_LABELS: Readonly<Record<AcquirerName, string>> = LABELS;

export function isAcquirerName(value: string): value is AcquirerName {
  return Object.hasOwn(LABELS, value);
}

/** "finaro, clearhaus or bambora": the names in a sentence, joined by `last` before the last one. */
export function acquirerNameList(last: "or" | "and" = "or"): string {
  return ACQUIRER_NAMES.length === 1
    ? ACQUIRER_NAMES[0]
    : `${ACQUIRER_NAMES.slice(0, -1).join(", ")} ${last} ${ACQUIRER_NAMES.at(-1)}`;
}
