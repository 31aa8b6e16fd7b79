// POST /api/mit (spec 4.3): a merchant-initiated authorization on behalf of a stored payment.
import { z } from "zod";
import {
  amountField,
  currencyField,
  customerSchema,
  labelSchema,
  merchantIdSchema,
  noteSchema,
  paymentIdSchema,
  processorSchema,
  tagsSchema,
  urlField,
} from "./common";

export const MIT_PAYMENT_TYPES = ["incremental", "scheduled", "unscheduled"] as const;
export type MitPaymentType = (typeof MIT_PAYMENT_TYPES)[number];

export const mitRequestSchema = z.strictObject({
  merchantid: merchantIdSchema.describe("Your merchant id; it must be the API key's merchant."),
  /** The stored (parent) payment; `merchantpaymentid` may name it instead. */
  paymentid: paymentIdSchema
    .describe("The earlier payment whose stored card data is charged. One of paymentid, parentpaymentid or merchantpaymentid is required.")
    .optional(),
  parentpaymentid: paymentIdSchema.describe("Another name for `paymentid` (the record's field name); when both are sent they must agree.").optional(),
  merchantpaymentid: paymentIdSchema
    .describe("Your reference of the earlier payment, in place of its paymentid; with paymentid, it must name the same payment.")
    .optional(),
  /** The merchant's reference for the new payment. */
  newmerchantpaymentid: paymentIdSchema.describe("Your reference for the new payment, unique among your payments.").optional(),
  amount: amountField("Amount to authorize, in minor units of `currency` (at least 1).", { minimum: 1 }),
  currency: currencyField("Currency of the amount."),
  reference: labelSchema.describe("Your order reference: 0 to 32 characters of a-z A-Z 0-9, hyphen and space.").optional(),
  paymenttype: z
    .enum(MIT_PAYMENT_TYPES, { error: "must be one of incremental, scheduled, unscheduled" })
    .describe(
      "Why the stored card is charged without the cardholder: incremental (adds to an earlier authorization), scheduled (a recurring payment on a fixed schedule), unscheduled (a later charge at no fixed time).",
    ),
  processor: processorSchema.describe("Processor to use; absent: your routing rule decides.").optional(),
  textonstatement: labelSchema
    .describe("Text on the cardholder's bank statement: 0 to 32 characters of a-z A-Z 0-9, hyphen and space.")
    .optional(),
  note: noteSchema.describe("Your note, stored with the payment (up to 1024 characters).").optional(),
  tags: tagsSchema.describe("Space-separated tags of a-z A-Z 0-9, underscore and hyphen, stored with the payment.").optional(),
  customer: customerSchema.optional(),
  notificationurl: urlField("Where the MIT notification is sent; absent: your configured address.").optional(),
});

export type MitRequest = z.infer<typeof mitRequestSchema>;
