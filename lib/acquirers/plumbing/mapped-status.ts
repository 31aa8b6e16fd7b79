// What an acquirer's code table maps a documented code to (its transformers' exhaustive switch): our
// status, the failure class and the ISO 8583 response code; and the two shapes most entries take.
import type { ProcessorResult } from "../contract";

export type MappedStatus = Pick<ProcessorResult, "status" | "failure" | "responsecode">;

/** The card was declined (by the issuer, or by the acquirer's rules for it). */
export const declined = (responsecode: string): MappedStatus => ({ status: "declined", failure: "declined", responsecode });

/** The request was refused before any decision about the card: failed, and as final as a decline. */
export const refused = (responsecode: string): MappedStatus => ({ status: "failed", failure: "declined", responsecode });

/** Whether `code` is one of the `documented` codes (the switch over them is then exhaustive). */
export function isDocumented<T extends number>(documented: readonly T[], code: number): code is T {
  return (documented as readonly number[]).includes(code);
}
