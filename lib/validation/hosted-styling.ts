// HostedIntegration.styling: how the hosted card fields look inside our frames, per `hostedid`.
// The back office edits it through this schema and the field pages render it into their own
// stylesheet, so every value is checked to be one plain CSS value (no ';', '{', '}', '<', url()
// except fonts from https addresses): a styling value can never add rules or load other things.
import { z } from "zod";

const color = z
  .string()
  .trim()
  .regex(
    /^(#[0-9a-fA-F]{3,8}|(rgb|rgba|hsl|hsla)\(\s*[0-9.%\s,/]+\)|[a-zA-Z]{3,20})$/,
    "must be a CSS colour: #rgb, #rrggbb, rgb(...), hsl(...) or a colour name",
  );

const length = z
  .string()
  .trim()
  .regex(/^(0|\d{1,3}(\.\d{1,3})?(px|rem|em|%))$/, "must be a CSS length such as 16px, 1rem or 0");

/** A font stack of family names: letters, digits, spaces, hyphens, quotes and commas only. */
const fontFamily = z
  .string()
  .trim()
  .max(200, "must be at most 200 characters")
  .regex(/^[a-zA-Z0-9 ,'"-]+$/, "must be a list of font family names separated by commas");

const placeholder = z
  .string()
  .max(40, "must be at most 40 characters")
  .regex(/^[^<>]*$/, "must not contain < or >");

/** A web font the fields load (a gap merchants hit elsewhere: no custom fonts inside the frames). */
const webFont = z.strictObject({
  family: z
    .string()
    .trim()
    .regex(/^[a-zA-Z0-9 -]{1,60}$/, "must be a font family name"),
  /** https address of a woff2 or woff file; its origin is added to the frame's font-src. */
  src: z
    .url({ protocol: /^https$/, error: "must be an https URL" })
    .refine(
      (value) => /\.(woff2?|ttf|otf)(\?.*)?$/.test(new URL(value).pathname + new URL(value).search) && !/["'()\\\s]/.test(value),
      "must be a .woff2, .woff, .ttf or .otf address without quotes or brackets",
    ),
  weight: z.union([z.literal(400), z.literal(500), z.literal(600), z.literal(700)]).default(400),
  style: z.enum(["normal", "italic"]).default("normal"),
});

export const hostedStylingSchema = z
  .strictObject({
    fontFamily: fontFamily.optional(),
    fontSize: length.optional(),
    fontWeight: z.union([z.literal(300), z.literal(400), z.literal(500), z.literal(600), z.literal(700)]).optional(),
    letterSpacing: length.optional(),
    color: color.optional(),
    backgroundColor: color.optional(),
    placeholderColor: color.optional(),
    /** Text and underline colour of a field whose value is wrong. */
    errorColor: color.optional(),
    /** Colour of a field whose value is complete and valid. */
    validColor: color.optional(),
    /** Height of each field frame's input. */
    height: length.optional(),
    padding: length.optional(),
    borderColor: color.optional(),
    borderRadius: length.optional(),
    focusColor: color.optional(),
    /** Placeholder text per field; English defaults otherwise. */
    placeholders: z
      .strictObject({
        pan: placeholder.optional(),
        expmonth: placeholder.optional(),
        expyear: placeholder.optional(),
        securitycode: placeholder.optional(),
        exp: placeholder.optional(),
      })
      .optional(),
    fonts: z.array(webFont).max(4, "at most 4 web fonts").optional(),
  })
  .describe("Hosted-field styling");

export type HostedStyling = z.infer<typeof hostedStylingSchema>;

/** Reads a stored styling value; anything unreadable (older or hand-edited data) falls back to the defaults. */
export function parseStoredStyling(value: unknown): HostedStyling {
  const parsed = hostedStylingSchema.safeParse(value ?? {});
  return parsed.success ? parsed.data : {};
}

/**
 * The colours the hosted fields use where the styling sets none (lib/cardholder/frame-page.ts), in one
 * place so that the styling form shows the real default of each colour as its placeholder and swatch.
 * `transparent`: the merchant's page shows through; `inherit`: the text colour is kept.
 */
export const DEFAULT_FIELD_COLOURS = {
  color: "#1f2937",
  backgroundColor: "transparent",
  placeholderColor: "#9ca3af",
  borderColor: "#d1d5db",
  focusColor: "#4f46e5",
  errorColor: "#b91c1c",
  validColor: "inherit",
} as const satisfies Partial<Record<keyof HostedStyling, string>>;
