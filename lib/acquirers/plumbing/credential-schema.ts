// Building blocks of the modules' credential schemas (./<name>/credentials.ts): what goes into a form
// field, a header or a signature, with messages that name the field as the form labels it.
import { z } from "zod";

/** Printable ASCII without spaces. */
export const token = (label: string, min: number, max: number) =>
  z
    .string({ error: `${label} is required` })
    .trim()
    .min(min, `${label} must be at least ${min} characters`)
    .max(max, `${label} must be at most ${max} characters`)
    .regex(/^[\x21-\x7E]+$/, `${label} must be printable ASCII without spaces`);

export const alphanumeric = (label: string, min: number, max: number) =>
  token(label, min, max).regex(/^[A-Za-z0-9]+$/, `${label} must be letters and digits only`);
