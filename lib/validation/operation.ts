// POST /api/{paymentid}/capture, /refund and /void (spec 4.4 to 4.6): the same four fields.
import { z } from "zod";
import { amountField, merchantIdSchema, noteSchema, tagsSchema, urlField } from "./common";

/** Fields of capture, refund and void (spec 4.4 to 4.6). Every field is optional, and so is the body. */
export const operationRequestSchema = z.strictObject({
  merchantid: merchantIdSchema.describe("Your merchant id; when sent, it must be the API key's merchant.").optional(),
  amount: amountField(
    "Amount in minor units of the payment's currency (at least 1). Absent: all that is left (capture: the authorized amount not yet captured; refund: the captured amount not yet refunded; void: the whole authorization, and a sent amount must equal the authorized amount).",
    { minimum: 1 },
  ).optional(),
  note: noteSchema.describe("Your note, stored with the operation (up to 1024 characters).").optional(),
  tags: tagsSchema.describe("Space-separated tags of a-z A-Z 0-9, underscore and hyphen, stored with the operation.").optional(),
  notificationurl: urlField("Where the operation notification is sent; absent: the payment's address, else your configured address.").optional(),
});
export type OperationRequest = z.infer<typeof operationRequestSchema>;
