// Reading JSON an acquirer sent (answers, card-update feeds): the one place where a bad body turns
// into an error, with a FIXED text per failure class. Never JSON.parse's own message: V8 quotes the
// text around the fault ("Unexpected token } in JSON at position 40 ... "4111111111111111"..."),
// and a feed of card updates holds card numbers. Nor zod's: an issue may carry the value it refused.
import type { z } from "zod";

export type AcquirerDataFailure = "not JSON" | "unexpected shape";

export class AcquirerDataError extends Error {
  readonly failure: AcquirerDataFailure;

  constructor(what: string, failure: AcquirerDataFailure) {
    super(`${what}: ${failure === "not JSON" ? "the body is not JSON" : "the body does not have the expected shape"}`);
    this.name = "AcquirerDataError";
    this.failure = failure;
  }
}

/** Parses `text` as JSON of `schema`; throws an AcquirerDataError naming `what` (a fixed label) and nothing of the text. */
export function parseAcquirerJson<Schema extends z.ZodType>(text: string, schema: Schema, what: string): z.output<Schema> {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new AcquirerDataError(what, "not JSON");
  }
  const parsed = schema.safeParse(json);
  if (!parsed.success) throw new AcquirerDataError(what, "unexpected shape");
  return parsed.data;
}
