// The JSON bodies of the notifications of spec 6.2 to 6.6, as zod schemas: the one source of their
// types (lib/notifications/bodies.ts builds them) and of the OpenAPI document's webhooks. Field
// names and types are the spec's: `surename`, `Issuer`, `Expiry date`, operation amounts as strings,
// ECI as a number or "". Every field is always present; an unknown value is "".
import { z } from "zod";

const eciSchema = z.union([z.number().int().min(0).max(99), z.literal("")]).describe("ECI level, or empty when none applies.");
const outcomeSchema = z.enum(["approved", "declined", "failed"]);

/** 6.2: the end of a cardholder-initiated payment. */
export const completionNotificationSchema = z.object({
  sessionid: z.string(),
  paymentid: z.string(),
  merchantpaymentid: z.string(),
  newmerchantpaymentid: z.string(),
  status: z.enum(["approved", "timeout", "declined", "failed"]),
  responsecode: z.string(),
  authorizationcode: z.string(),
  processor: z.string(),
  tcardnumber: z.string().describe("6 digits, 4 or more x, 4 digits; empty when no card was used."),
  eci: eciSchema,
  merchantdata: z.string().max(4096),
  par: z.string(),
});

/** 6.3: the result of a merchant-initiated authorization. */
export const mitNotificationSchema = z.object({
  responseid: z.string(),
  paymentid: z.string(),
  newmerchantpaymentid: z.string(),
  responsecode: z.string(),
  authorizationcode: z.string(),
  status: outcomeSchema,
  processor: z.string(),
  eci: eciSchema,
  par: z.string(),
});

/** 6.4: the result of a capture, refund or void. */
export const operationNotificationSchema = z.object({
  responseid: z.string(),
  paymentid: z.string(),
  merchantpaymentid: z.string(),
  responsecode: z.string(),
  authorizationcode: z.string(),
  status: outcomeSchema,
});

/** 2.3: one operation of a payment record. */
export const operationRecordSchema = z.object({
  operationid: z.string(),
  operationtype: z.string(),
  paymenttype: z.string().optional().describe("Present on authorize operations."),
  amount: z.string().describe("Minor units, as a string (spec 2.3)."),
  currency: z.string(),
  created: z.string().describe("UTC, YYYY-MM-DD HH:MM:SS."),
  note: z.string(),
  responsecode: z.string(),
  authorizationcode: z.string(),
  status: z.string(),
});

/** 2.4: the card image, with gfx=1. */
export const cardImageRecordSchema = z.object({
  b64image: z.string().max(4096),
  mimetype: z.literal("image/png"),
  height: z.number().int(),
  width: z.number().int(),
  expmonth: z.number().int().min(1).max(12),
  expyear: z.number().int(),
  last4: z.string(),
  issuer: z.string(),
});

/** 2.2 with the lookup's responseid (6.5). */
export const paymentRecordSchema = z.object({
  merchantid: z.string(),
  paymentid: z.string(),
  merchantpaymentid: z.string(),
  parentpaymentid: z.string(),
  responseid: z.string(),
  amount: z.number().int(),
  balance: z.number().int(),
  currency: z.string(),
  reference: z.string(),
  paymenttype: z.string(),
  processor: z.string(),
  textonstatement: z.string(),
  note: z.string(),
  tags: z.string(),
  sca: z.string(),
  scheme: z.string(),
  segment: z.string(),
  Issuer: z.string(),
  "Expiry date": z.string().describe("MM/YYYY, empty without a card."),
  last4: z.string(),
  funding: z.string(),
  pantype: z.string(),
  customer: z.object({ email: z.string(), firstname: z.string(), surename: z.string(), ipaddress: z.string() }),
  operations: z.array(operationRecordSchema),
  gfx: cardImageRecordSchema.optional(),
});

/** 6.6: the card behind a payment was updated by its issuer. */
export const lifecycleNotificationSchema = z.object({
  paymentid: z.string(),
  merchantpaymentid: z.string(),
});

/** The back office's "send test notification" (beyond the spec): says nothing about a payment. */
export const testNotificationSchema = z.object({
  type: z.literal("test"),
  merchantid: z.string(),
  message: z.string(),
  created: z.string().describe("UTC, YYYY-MM-DD HH:MM:SS."),
});
