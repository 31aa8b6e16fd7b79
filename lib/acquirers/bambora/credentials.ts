// Bambora North America Payments API v1 credentials (docs/acquirers/references/bambora.md): the
// merchant id and one passcode per API ("Authorization: Passcode base64(merchant_id:passcode)"): the
// Payments API passcode for payments, completions, returns and voids, the Reporting API passcode for
// the search by our order number (the look-up after a lost answer). A partner acting for a
// sub-merchant authenticates with its own merchant id and passcodes and names the sub-merchant in
// `Sub-Merchant-Id`. The account's currency (CAD or USD, the processor's one currency) is the account's `currencies`.
import { z } from "zod";
import type { CredentialField } from "../contract";
import { alphanumeric } from "../plumbing/credential-schema";

/** A Bambora North America merchant id: 9 digits (e.g. 300200578). */
const bamboraMerchantId = (label: string) =>
  z
    .string({ error: `${label} is required` })
    .trim()
    .regex(/^\d{9}$/, `${label} must be the 9 digits Bambora issued (e.g. 300200578)`);

export const bamboraCredentials = z
  .object({
    merchantId: bamboraMerchantId("Merchant id"),
    paymentsPasscode: alphanumeric("Payments API passcode", 1, 64),
    reportingPasscode: alphanumeric("Reporting API passcode", 1, 64),
    subMerchantId: bamboraMerchantId("Sub-merchant id").optional(),
  })
  .strict();

export type BamboraCredentials = z.infer<typeof bamboraCredentials>;

/** The credential fields, in form order. */
export const BAMBORA_CREDENTIAL_FIELDS: readonly CredentialField[] = [
  { key: "merchantId", label: "Merchant id", secret: false, hint: "The 9-digit merchant id of the Bambora North America account." },
  {
    key: "paymentsPasscode",
    label: "Payments API passcode",
    secret: true,
    hint: "Member area: administration → account settings → order settings, section Payment Gateway.",
  },
  {
    key: "reportingPasscode",
    label: "Reporting API passcode",
    secret: true,
    hint: "Order settings, section Reporting: used to look up a payment whose answer was lost.",
  },
  {
    key: "subMerchantId",
    label: "Sub-merchant id",
    secret: false,
    optional: true,
    hint: "Partners only: the sub-merchant this account acts for.",
  },
];
