// POST /api/{paymentid}/payout (spec 4.7): pays money out to the card behind a payment.
import { z } from "zod";
import {
  amountField,
  currencyField,
  emailSchema,
  labelSchema,
  merchantIdSchema,
  nameSchema,
  noteSchema,
  paymentIdSchema,
  processorSchema,
  tagsSchema,
  urlField,
} from "./common";

export const payoutRequestSchema = z.strictObject({
  merchantid: merchantIdSchema.describe("Your merchant id; when sent, it must be the API key's merchant.").optional(),
  amount: amountField("Amount to pay out, in minor units of `currency` (at least 1).", { minimum: 1 }),
  currency: currencyField("Currency of the payout."),
  email: emailSchema.describe("Email address of the cardholder who receives the funds.").optional(),
  firstname: nameSchema.describe("First name of the cardholder who receives the funds.").optional(),
  surename: nameSchema.describe("Surname of the cardholder who receives the funds (the spec spells the field this way).").optional(),
  note: noteSchema.describe("Your note, stored with the payout (up to 1024 characters).").optional(),
  tags: tagsSchema.describe("Space-separated tags of a-z A-Z 0-9, underscore and hyphen, stored with the payout.").optional(),
  textonstatement: labelSchema
    .describe("Text on the cardholder's bank statement: 0 to 32 characters of a-z A-Z 0-9, hyphen and space.")
    .optional(),
  notificationurl: urlField(
    "Where the payout's result is notified (an operation notification, also when answered at once); absent: your configured default address. A payout whose result could reach nobody is refused.",
  ).optional(),
  processor: processorSchema.describe("Processor to pay out through; absent: the payment's processor, then those of your primary routing rule.").optional(),
  newmerchantpaymentid: paymentIdSchema
    .describe(
      "Beyond the spec: your own reference for the payout (its payment's merchantpaymentid), unique per merchant; a repeat with the same reference is refused, so the payout is made once even without an Idempotency-Key.",
    )
    .optional(),
});

export type PayoutRequest = z.infer<typeof payoutRequestSchema>;
