// POST /api/{paymentid}/capture, /refund and /void (spec 4.4 to 4.6): the same four fields.
import { z } from "zod";
import { merchantIdSchema, noteSchema, notificationUrlSchema, positiveAmountSchema, tagsSchema } from "./common";

/** Fields of capture, refund and void (spec 4.4 to 4.6). */
export const operationRequestSchema = z.strictObject({
  merchantid: merchantIdSchema.optional(),
  amount: positiveAmountSchema.optional(),
  note: noteSchema.optional(),
  tags: tagsSchema.optional(),
  notificationurl: notificationUrlSchema.optional(),
});
export type OperationRequest = z.infer<typeof operationRequestSchema>;
