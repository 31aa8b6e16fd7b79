// What the OpenAPI document states a request field takes, where its zod schema reads input more
// leniently than a client should write it (an amount also as a digit string, set3ds in any case)
// or transforms it in a way JSON Schema cannot express. lib/openapi puts `schema` in the place of
// the derived one and appends `note` to the field's description, so the leniency is documented
// without becoming the type generated clients are built from.
import { z } from "zod";

export interface DocumentedInput {
  /** The JSON Schema of what a client should send. */
  schema: Record<string, unknown>;
  /** In words, what the schema cannot say: the leniency the service allows beyond it, or rules it checks besides. */
  note?: string;
}

export const documentedInputs = z.registry<DocumentedInput>();

/** Registers `input` for `field` (a schema instance used in one place: describe() or meta() it first) and returns it. */
export function documentInput<Field extends z.ZodType>(field: Field, input: DocumentedInput): Field {
  documentedInputs.add(field, input);
  return field;
}
