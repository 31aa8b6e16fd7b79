// What an acquirer account is made of besides its credentials, validated the same way for the CLI,
// the back office and the upgrade import: the merchant as the schemes see it (acquirer merchant id,
// acquirer BIN per scheme, MCC, name, country: the 3-D Secure requestor data), the statement
// descriptor under its acquirer's rules, the currencies it takes, enabled, test or live.
import countries from "i18n-iso-countries";
import { z } from "zod";
import { CARD_SCHEMES } from "../../cards/card-scheme";
import { isCurrencyCode } from "../../validation/currency";
import type { AcquirerName } from "../../acquirers/names";
import { platformView } from "../../acquirers/platforms";

const PRINTABLE_ASCII = /^[\x20-\x7E]*$/;

/** Why a descriptor is refused by `processor`'s rules (on `platform`), or undefined when it is fine. */
export function descriptorProblem(processor: AcquirerName, descriptor: string, platform?: string | null): string | undefined {
  if (!PRINTABLE_ASCII.test(descriptor)) return "must be printable ASCII characters (no accents or symbols beyond ASCII)";
  return platformView(processor, platform).accountRules.descriptorProblem(descriptor);
}

/** Why an acquirer merchant id is refused for `processor` (on `platform`), or undefined. */
export function acquirerMerchantIdProblem(processor: AcquirerName, value: string, platform?: string | null): string | undefined {
  return platformView(processor, platform).accountRules.acquirerMerchantIdProblem(value);
}

/** Why the currencies an account takes are refused for `processor` (on `platform`), or undefined. */
export function currenciesProblem(
  processor: AcquirerName,
  value: { anyCurrency: boolean; currencies: readonly string[] },
  platform?: string | null,
): string | undefined {
  return platformView(processor, platform).accountRules.currenciesProblem(value);
}

/** Acquirer BIN per scheme: EMV 3DS acquirerBIN is at most 11 characters; acquirer BINs are 6 to 11 digits. */
export const acquirerBinsSchema = z
  .object(
    Object.fromEntries(
      CARD_SCHEMES.map((scheme) => [
        scheme,
        z
          .string()
          .trim()
          .regex(/^\d{6,11}$/, "must be 6 to 11 digits")
          .optional(),
      ]),
    ),
  )
  .strict()
  .transform(
    (bins) => Object.fromEntries(Object.entries(bins).filter(([, bin]) => bin)) as Partial<Record<(typeof CARD_SCHEMES)[number], string>>,
  );
export type AcquirerBins = z.infer<typeof acquirerBinsSchema>;

export const mccSchema = z
  .string({ error: "MCC is required" })
  .trim()
  .regex(/^\d{4}$/, "must be the four digits of an ISO 18245 merchant category code")
  .refine((mcc) => mcc !== "0000", "0000 is not a merchant category code");

export const countrySchema = z
  .string({ error: "Country is required" })
  .trim()
  .toUpperCase()
  .refine((code) => /^[A-Z]{2}$/.test(code) && countries.isValid(code), "must be an ISO 3166-1 alpha-2 country code such as DK");

/** The ISO 3166-1 numeric code of an alpha-2 country (the EMV 3DS merchantCountryCode). */
export function numericCountryCode(alpha2: string): string | undefined {
  return countries.alpha2ToNumeric(alpha2) ?? undefined;
}

/** EMV 3DS merchantName: at most 40 characters. */
export const merchantNameSchema = z
  .string({ error: "Merchant name is required" })
  .trim()
  .min(1, "Merchant name is required")
  .max(40, "must be at most 40 characters (the 3-D Secure merchant name)")
  .regex(PRINTABLE_ASCII, "must be printable ASCII characters");

/** "any" or ISO 4217 codes, comma or space separated, as typed in the CLI and the back office. */
export const currenciesSchema = z.union([z.string(), z.array(z.string())]).transform((value, context) => {
  const words = (Array.isArray(value) ? value : value.split(/[\s,]+/)).map((word) => word.trim().toUpperCase()).filter(Boolean);
  if (words.length === 1 && words[0] === "ANY") return { anyCurrency: true, currencies: [] as string[] };
  if (words.length === 0) {
    context.addIssue({ code: "custom", message: "name the currencies this account takes (ISO 4217, e.g. EUR, DKK) or any" });
    return z.NEVER;
  }
  const unknown = words.filter((word) => !isCurrencyCode(word));
  if (unknown.length > 0) {
    context.addIssue({ code: "custom", message: `not an ISO 4217 currency code: ${unknown.join(", ")}` });
    return z.NEVER;
  }
  return { anyCurrency: false, currencies: [...new Set(words)].sort() };
});

export const accountNameSchema = z
  .string({ error: "Name is required" })
  .trim()
  .min(1, "Name is required")
  .max(60, "must be at most 60 characters");

export const accountModeSchema = z.enum(["test", "live"], { error: "must be test or live" });

const accountFieldShape = {
  name: accountNameSchema,
  acquirerMerchantId: z.string({ error: "Acquirer merchant id is required" }).trim(),
  acquirerBins: acquirerBinsSchema,
  mcc: mccSchema,
  merchantName: merchantNameSchema,
  country: countrySchema,
  descriptor: z.string({ error: "Statement descriptor is required" }).trim(),
  currencies: currenciesSchema,
  enabled: z.boolean(),
  mode: accountModeSchema,
};

/** Everything but the credentials, as entered for a new account; processor-specific rules are applied on saving. */
export const accountFieldsSchema = z.object({
  ...accountFieldShape,
  acquirerBins: acquirerBinsSchema.default({}),
  enabled: z.boolean().default(true),
  mode: accountModeSchema.default("test"),
});
export type AccountFieldsInput = z.input<typeof accountFieldsSchema>;
export type AccountFields = z.infer<typeof accountFieldsSchema>;

/** A change: any of the fields, none defaulted (an absent field stays as it is). */
export const accountFieldsUpdateSchema = z.object(accountFieldShape).partial();

/** The currencies an account row takes, for display: "any" or the codes. */
export function describeCurrencies(account: { anyCurrency: boolean; currencies: readonly string[] }): string {
  return account.anyCurrency ? "any currency" : account.currencies.join(", ");
}

/** Whether an account row takes `currency`. */
export function acceptsCurrency(account: { anyCurrency: boolean; currencies: readonly string[] }, currency: string): boolean {
  return account.anyCurrency || account.currencies.includes(currency);
}
