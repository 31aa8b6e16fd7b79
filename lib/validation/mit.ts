// POST /api/mit (spec 4.3): a merchant-initiated authorization on behalf of a stored payment.
import { z } from "zod";
import {
  currencySchema,
  customerSchema,
  labelSchema,
  merchantIdSchema,
  noteSchema,
  notificationUrlSchema,
  paymentIdSchema,
  positiveAmountSchema,
  processorSchema,
  tagsSchema,
} from "./common";

export const MIT_PAYMENT_TYPES = ["incremental", "scheduled", "unscheduled"] as const;
export type MitPaymentType = (typeof MIT_PAYMENT_TYPES)[number];

export const mitRequestSchema = z.strictObject({
  merchantid: merchantIdSchema,
  /** The stored (parent) payment; `merchantpaymentid` may name it instead. */
  paymentid: paymentIdSchema.optional(),
  parentpaymentid: paymentIdSchema.optional(),
  merchantpaymentid: paymentIdSchema.optional(),
  /** The merchant's reference for the new payment. */
  newmerchantpaymentid: paymentIdSchema.optional(),
  amount: positiveAmountSchema,
  currency: currencySchema,
  reference: labelSchema.optional(),
  paymenttype: z.enum(MIT_PAYMENT_TYPES, { error: "must be one of incremental, scheduled, unscheduled" }),
  processor: processorSchema.optional(),
  textonstatement: labelSchema.optional(),
  note: noteSchema.optional(),
  tags: tagsSchema.optional(),
  customer: customerSchema.optional(),
  notificationurl: notificationUrlSchema.optional(),
});

export type MitRequest = z.infer<typeof mitRequestSchema>;
