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
});

export type PayoutRequest = z.infer<typeof payoutRequestSchema>;
