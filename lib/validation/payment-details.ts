// GET /api/{paymentid}/payment (spec 4.8): the lookup's parameters arrive as query parameters.
import { z } from "zod";
import { merchantIdSchema, paymentIdSchema, urlField } from "./common";
import { documentInput } from "./documented-input";

/** A "0"/"1" query flag, read as a boolean; the document states the string the query carries. */
const flag = (message: string, description: string) =>
  documentInput(z.enum(["0", "1"], { error: message }).transform((value) => value === "1").describe(description).default(false), {
    schema: { type: "string", enum: ["0", "1"], default: "0" },
  });

export const paymentDetailsRequestSchema = z.strictObject({
  merchantid: merchantIdSchema.describe("Your merchant id; when sent, it must be the API key's merchant.").optional(),
  notificationurl: urlField("Where the payment details notification is sent; absent: your configured address. Not used with sync=1.").optional(),
  gfx: flag("must be 0 or 1", "1 adds the card image (`gfx`) to the record."),
  operationid: paymentIdSchema.describe("Only this operation in `operations`; absent: all of them. The rest of the record is always complete.").optional(),
  /**
   * Beyond the spec: 1 answers the record on the connection (as Stripe's retrieve does) and sends no
   * notification; the spec's asynchronous lookup (0) stays the default.
   */
  sync: flag(
    "must be 0 (record by notification) or 1 (record in the answer)",
    "Beyond the spec. 0: the record arrives as the payment details notification (spec 4.8). 1: the record is the answer, and no notification is sent.",
  ),
});

export type PaymentDetailsRequest = z.infer<typeof paymentDetailsRequestSchema>;
