// Field formats shared by the merchant API's request schemas (spec sections 2, 4 and 8). Messages
// say the reason only; lib/validation/parse-input.ts puts the parameter's name in front.
import { z } from "zod";
import { ACQUIRER_NAMES } from "../acquirers/names";
import { checkParsedMerchantUrl } from "../egress/check-merchant-url";
import { isCurrencyCode } from "./currency";
import { documentInput } from "./documented-input";

/** Up to 12 digits, like the MIT amount format of spec 4.3 (`^[0-9]{1,12}$`). */
const AMOUNT_DIGITS = /^[0-9]{1,12}$/;
export const MAX_AMOUNT = 999_999_999_999;

/**
 * An amount in minor units. JSON numbers and digit-only strings are accepted (merchants' stacks
 * differ); a decimal point or comma, a sign, letters or more than 12 digits are refused (spec 7).
 */
export const amountSchema = z.unknown().transform((value, context): bigint => {
  if (typeof value === "number") {
    if (Number.isInteger(value) && value >= 0 && value <= MAX_AMOUNT) return BigInt(value);
    context.addIssue({ code: "custom", message: "must be a whole number of minor units from 0 to 999999999999, without decimals or sign" });
    return z.NEVER;
  }
  if (typeof value === "string") {
    if (AMOUNT_DIGITS.test(value)) return BigInt(value);
    context.addIssue({
      code: "custom",
      message: "must be 1 to 12 digits (minor units); decimal separators, signs and letters are not supported",
    });
    return z.NEVER;
  }
  context.addIssue({ code: "custom", message: value === undefined ? "is required" : "must be an integer of minor units" });
  return z.NEVER;
});

/** An amount that moves money: at least 1 minor unit. */
export const positiveAmountSchema = amountSchema.refine((amount) => amount > 0n, "must be at least 1 (minor units)");

/**
 * An amount field as the OpenAPI document states it: an integer of minor units. The digit string
 * the service also reads is documented leniency, not the type clients are generated with.
 */
export function amountField(description: string, { minimum }: { minimum: 0 | 1 }) {
  return documentInput((minimum === 0 ? amountSchema : positiveAmountSchema).describe(description), {
    schema: { type: "integer", format: "int64", minimum, maximum: MAX_AMOUNT },
    note: 'Leniency: a string of 1 to 12 digits ("250") is read as the same integer; decimals, signs and separators are refused.',
  });
}

/** ISO 4217 alpha-3, case-insensitive on input and upper case afterwards. */
export const currencySchema = z
  .string({ error: "must be an ISO 4217 alpha-3 code such as DKK" })
  .transform((code) => code.toUpperCase())
  .refine((code) => /^[A-Z]{3}$/.test(code) && isCurrencyCode(code), "must be an ISO 4217 alpha-3 code such as DKK");

/** A currency field as the OpenAPI document states it: upper case; lower case is documented leniency. */
export function currencyField(description: string) {
  return documentInput(currencySchema.describe(description), {
    schema: { type: "string", pattern: "^[A-Z]{3}$" },
    note:
      "An ISO 4217 alpha-3 code in circulation (the amount's minor units follow its exponent: 2 for DKK, 0 for JPY); codes out of circulation are refused. Leniency: lower case is read as upper case.",
  });
}

const LABEL = /^[a-zA-Z0-9- ]{0,32}$/;
/** reference and textonstatement: 0 to 32 characters of a-z A-Z 0-9 hyphen space (spec 8). */
export const labelSchema = z
  .string({ error: "must be a string" })
  .regex(LABEL, "must be 0 to 32 characters of a-z, A-Z, 0-9, hyphen and space");

/** paymentid, merchantpaymentid and the like: 1 to 32 characters a-z A-Z 0-9 (spec 2.2, 6.2). */
export const paymentIdSchema = z
  .string({ error: "must be a string" })
  .regex(/^[a-zA-Z0-9]{1,32}$/, "must be 1 to 32 characters of a-z, A-Z and 0-9");

/** The email format of spec 4.7. */
export const emailSchema = z
  .string({ error: "must be a string" })
  .max(254, "must be at most 254 characters")
  .regex(/^[a-zA-Z0-9._%+-]+@[a-zA-Z0-9.-]+\.[a-zA-Z]{2,}$/, "must be an email address");

/**
 * A merchant address the service will POST to: refused when its scheme or its literal IP address is
 * one the egress policy refuses (https in production; loopback outside local mode; private,
 * link-local, mapped ... always). Host names are checked when they are resolved (lib/egress).
 */
export const notificationUrlSchema = z
  .string({ error: "must be a string" })
  .max(2048, "must be at most 2048 characters")
  .pipe(z.url({ protocol: /^https?$/, error: "must be an absolute http or https URL" }))
  .superRefine((value, context) => {
    // As the back office refuses it: a password in the address would be stored and shown (review 3, L4).
    const parsed = URL.parse(value);
    if (!parsed) return;
    if (parsed.username || parsed.password) {
      context.addIssue({ code: "custom", message: "must not contain a user name or password" });
      return;
    }
    const refused = checkParsedMerchantUrl(parsed);
    if (refused) context.addIssue({ code: "custom", message: refused });
  });

/** A notification or redirect address field: its OpenAPI type says it is a URI. */
export function urlField(description: string) {
  return documentInput(notificationUrlSchema.describe(description), {
    schema: { type: "string", format: "uri", maxLength: 2048 },
    note: "http or https; the service refuses addresses its egress policy forbids (https only in production, no private or link-local addresses).",
  });
}

export const processorSchema = z.enum(ACQUIRER_NAMES, { error: `must be one of ${ACQUIRER_NAMES.join(", ")}` });

export const noteSchema = z.string({ error: "must be a string" }).max(1024, "must be at most 1024 characters");

/** Space-separated tags of letters, digits, underscore and hyphen. */
export const tagsSchema = z
  .string({ error: "must be a string" })
  .max(256, "must be at most 256 characters")
  .regex(/^([a-zA-Z0-9_-]+( [a-zA-Z0-9_-]+)*)?$/, "must be words of a-z, A-Z, 0-9, underscore and hyphen separated by single spaces");

export const nameSchema = z.string({ error: "must be a string" }).max(100, "must be at most 100 characters");

export const customerSchema = z
  .strictObject(
    {
      email: emailSchema.describe("The cardholder's email address.").optional(),
      firstname: nameSchema.describe("The cardholder's first name.").optional(),
      surename: nameSchema.describe("The cardholder's surname (the spec spells the field this way).").optional(),
      ipaddress: documentInput(
        z.union([z.ipv4(), z.ipv6()], { error: "must be an IPv4 or IPv6 address" }).describe("The cardholder's IP address."),
        // One string type, not a union of two: generated clients get a plain string.
        { schema: { type: "string", maxLength: 45 }, note: "An IPv4 (192.0.2.10) or IPv6 (2001:db8::1) address; anything else is refused." },
      ).optional(),
    },
    { error: "must be an object with email, firstname, surename, ipaddress" },
  )
  .describe("The cardholder, as far as you know them; stored with the payment and shown in its record.");

/** `merchantid` may be sent with any request; when it is, it must be the API key's merchant. */
export const merchantIdSchema = z.string({ error: "must be a string" }).max(64, "must be at most 64 characters");
