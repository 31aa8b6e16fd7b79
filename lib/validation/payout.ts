// POST /api/{paymentid}/payout (spec 4.7): pays money out to the card behind a payment.
import { z } from "zod";
import {
  currencySchema,
  emailSchema,
  labelSchema,
  merchantIdSchema,
  nameSchema,
  noteSchema,
  notificationUrlSchema,
  paymentIdSchema,
  positiveAmountSchema,
  processorSchema,
  tagsSchema,
} from "./common";

export const payoutRequestSchema = z.strictObject({
  merchantid: merchantIdSchema.optional(),
  amount: positiveAmountSchema,
  currency: currencySchema,
  email: emailSchema.optional(),
  firstname: nameSchema.optional(),
  surename: nameSchema.optional(),
  note: noteSchema.optional(),
  tags: tagsSchema.optional(),
  textonstatement: labelSchema.optional(),
  notificationurl: notificationUrlSchema.optional(),
  processor: processorSchema.optional(),
  /**
   * Beyond the spec: the merchant's own reference for the payout (the payout payment's
   * merchantpaymentid, unique per merchant), as `newmerchantpaymentid` names the new payment of an
   * MIT. A repeat with the same reference is refused, so a payout is not made twice even without an
   * Idempotency-Key.
   */
  newmerchantpaymentid: paymentIdSchema
    .optional()
    .describe(
      "Beyond the spec: your own reference for the payout (its payment's merchantpaymentid), unique per merchant; a repeat with the same reference is refused, so the payout is made once even without an Idempotency-Key.",
    ),
});

export type PayoutRequest = z.infer<typeof payoutRequestSchema>;
