// GET /api/{paymentid}/payment (spec 4.8): the lookup's parameters arrive as query parameters.
import { z } from "zod";
import { merchantIdSchema, notificationUrlSchema, paymentIdSchema } from "./common";

export const paymentDetailsRequestSchema = z.strictObject({
  merchantid: merchantIdSchema.optional(),
  notificationurl: notificationUrlSchema.optional(),
  gfx: z
    .enum(["0", "1"], { error: "must be 0 or 1" })
    .transform((value) => value === "1")
    .default(false),
  operationid: paymentIdSchema.optional(),
  /**
   * Beyond the spec: 1 answers the record on the connection (as Stripe's retrieve does) and sends no
   * notification; the spec's asynchronous lookup (0) stays the default.
   */
  sync: z
    .enum(["0", "1"], { error: "must be 0 (record by notification) or 1 (record in the answer)" })
    .transform((value) => value === "1")
    .default(false),
});

export type PaymentDetailsRequest = z.infer<typeof paymentDetailsRequestSchema>;
