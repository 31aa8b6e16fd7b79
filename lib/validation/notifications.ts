// The JSON bodies of the notifications of spec 6.2 to 6.6, as zod schemas: the one source of their
// types (lib/notifications/bodies.ts builds them) and of the OpenAPI document's webhooks. Field
// names and types are the spec's: `surename`, `Issuer`, `Expiry date`, operation amounts as strings,
// ECI as a number or "". Every field is always present; an unknown value is "". Beyond the spec,
// every notification (and the payment record) carries `mode`, test or live
// (docs/decisions/0108-test-mode-and-live-mode.md): added last, so a receiver that reads the
// spec's fields is not affected.
import { z } from "zod";
import { acquirerNameList } from "../acquirers/names";

/** Beyond the spec: the mode of what the body reports (also in the X-CPS-Notification-Mode header). */
export const modeMemberSchema = z
  .enum(["test", "live"])
  .describe(
    "Beyond the spec: test (made with a test key, cps_test_…: test cards, sandboxes or test acquirer accounts, no money moved) or live. Also sent as the X-CPS-Notification-Mode header.",
  );

const eciSchema = z
  .union([z.number().int().min(0).max(99), z.literal("")])
  .describe("ECI (Electronic Commerce Indicator) level used towards the processor, 0 to 2 digits; empty when none applies.");
const outcomeSchema = z.enum(["approved", "declined", "failed"]).describe("approved, declined (refused by the acquirer) or failed (not done).");
const responseCode = z.string().describe("The processor's response code (ISO 8583, 2 or 3 characters, 00 when approved); empty when none.");
const authorizationCode = z.string().describe("The authorization code from the acquirer, empty when none.");
const processorName = z.string().describe(`The processor that handled it: ${acquirerNameList()}; empty when none was reached.`);
const par = z.string().describe("Payment Account Reference of the card (29 characters), empty when the acquirer gave none.");
const paymentId = z.string().describe("The payment's id.");
const merchantPaymentId = z.string().describe("Your reference of the payment, empty when it has none.");
const responseId = z.string().describe("The responseid the request was answered with.");

/** 6.2: the end of a cardholder-initiated payment. */
export const completionNotificationSchema = z.object({
  sessionid: z.string().describe("The payment window's id, as answered by initdynamic."),
  paymentid: z.string().describe("The payment's id; empty when no payment was made (time-out before paying)."),
  merchantpaymentid: z.string().describe("The initialization's merchantpaymentid, empty when none was sent."),
  newmerchantpaymentid: z.string().describe("The initialization's newmerchantpaymentid (a payment with stored card data), empty when none."),
  status: z.enum(["approved", "timeout", "declined", "failed"]).describe("approved, timeout (the window closed unpaid), declined or failed."),
  responsecode: responseCode,
  authorizationcode: authorizationCode,
  processor: processorName,
  tcardnumber: z.string().describe("6 digits, 4 or more x, 4 digits; empty when no card was used."),
  eci: eciSchema,
  merchantdata: z.string().max(4096).describe("The initialization's merchantdata, unchanged."),
  par,
  mode: modeMemberSchema,
});

/** 6.3: the result of a merchant-initiated authorization. */
export const mitNotificationSchema = z.object({
  responseid: responseId,
  paymentid: z.string().describe("The id of the new payment."),
  newmerchantpaymentid: z.string().describe("The request's newmerchantpaymentid, empty when none was sent."),
  responsecode: responseCode,
  authorizationcode: authorizationCode,
  status: outcomeSchema,
  processor: processorName,
  eci: eciSchema,
  par,
  mode: modeMemberSchema,
});

/** 6.4: the result of a capture, refund or void. */
export const operationNotificationSchema = z.object({
  responseid: responseId,
  paymentid: paymentId,
  merchantpaymentid: merchantPaymentId,
  responsecode: responseCode,
  authorizationcode: authorizationCode,
  status: outcomeSchema,
  mode: modeMemberSchema,
});

/** 2.3: one operation of a payment record. */
export const operationRecordSchema = z
  .object({
    operationid: z.string().describe("The operation's id."),
    operationtype: z.string().describe("authorize, capture, refund, void or payout."),
    paymenttype: z.string().optional().describe("Present on authorize operations."),
    amount: z.string().describe("Minor units, as a string (spec 2.3)."),
    currency: z.string().describe("ISO 4217 alpha-3 code."),
    created: z.string().describe("UTC, YYYY-MM-DD HH:MM:SS."),
    note: z.string().describe("The operation's note, empty when none."),
    responsecode: responseCode,
    authorizationcode: authorizationCode,
    status: z.string().describe("approved, declined, failed or pending."),
  })
  .describe("One operation on the payment (spec 2.3).");

/** 2.4: the card image, with gfx=1. */
export const cardImageRecordSchema = z
  .object({
    b64image: z.string().max(4096).describe("The card image: a PNG, Base64 encoded."),
    mimetype: z.literal("image/png").describe("Always image/png."),
    height: z.number().int().describe("Height of the image in pixels."),
    width: z.number().int().describe("Width of the image in pixels."),
    expmonth: z.number().int().min(1).max(12).describe("Expiry month of the card, 1 to 12."),
    expyear: z.number().int().describe("Expiry year of the card, four digits."),
    last4: z.string().describe("Last four digits of the card number."),
    issuer: z.string().describe("Name of the issuing bank, empty when unknown."),
  })
  .describe("The card image (spec 2.4); present only when the lookup asked for it with gfx=1.");

/** 2.2 with the lookup's responseid (6.5). */
export const paymentRecordSchema = z.object({
  merchantid: z.string().describe("Your merchant id."),
  paymentid: paymentId,
  merchantpaymentid: merchantPaymentId,
  parentpaymentid: z.string().describe("For a payment made with the stored card data of an earlier one: that payment's id; else empty."),
  responseid: z.string().describe("The responseid the lookup was answered with."),
  amount: z.number().int().describe("Authorized amount, in minor units."),
  balance: z.number().int().describe("Captured amount less refunded amount, in minor units (a payout's is negative once paid out)."),
  currency: z.string().describe("ISO 4217 alpha-3 code."),
  reference: z.string().describe("Your order reference, empty when none."),
  paymenttype: z.string().describe("cit (paid by the cardholder in a payment window), incremental, scheduled or unscheduled (MIT), or payout."),
  processor: z.string().describe(`The processor that authorized the payment: ${acquirerNameList()}; empty when none did.`),
  textonstatement: z.string().describe("Text on the cardholder's bank statement, empty when none was set."),
  note: z.string().describe("Your note, empty when none."),
  tags: z.string().describe("Your space-separated tags, empty when none."),
  sca: z.string().describe("Strong customer authentication: the 3-D Secure result (transStatus, such as Y or A) when the cardholder was authenticated; empty when not."),
  scheme: z.string().describe("Card scheme: visa, mastercard or amex; empty when unknown."),
  segment: z.string().describe("Owner type of the card: consumer, business, commercial, government or other; empty when unknown."),
  Issuer: z.string().describe("Name of the issuing bank (the spec spells the key with a capital I)."),
  "Expiry date": z.string().describe("MM/YYYY, empty without a card (the spec's key contains a space)."),
  last4: z.string().describe("Last four digits of the card number, empty without a card."),
  funding: z.string().describe("credit, debit, prepaid, charge or defereddebit; empty when unknown."),
  pantype: z.string().describe("dpan (a network token) or fpan (the card number itself); empty when unknown."),
  customer: z
    .object({
      email: z.string().describe("The cardholder's email address, empty when unknown."),
      firstname: z.string().describe("The cardholder's first name, empty when unknown."),
      surename: z.string().describe("The cardholder's surname (the spec spells the field this way), empty when unknown."),
      ipaddress: z.string().describe("The cardholder's IP address, empty when unknown."),
    })
    .describe("The cardholder, as far as known."),
  operations: z.array(operationRecordSchema).describe("The payment's operations, oldest first; only the one named by operationid when the lookup gave one."),
  gfx: cardImageRecordSchema.optional(),
  mode: modeMemberSchema,
});

/** 6.6: the card behind a payment was updated by its issuer. */
export const lifecycleNotificationSchema = z.object({
  paymentid: z.string().describe("The payment whose stored card was updated; look it up (GET /api/{paymentid}/payment) for the new details."),
  merchantpaymentid: merchantPaymentId,
  change: z
    .enum(["expiry", "pan", "closed", "mit_stopped"])
    .describe(
      "Beyond the spec: what changed. expiry, pan (a new card number) or closed: the issuer updated the card. mit_stopped: the cardholder stopped merchant-initiated payments on this card (an acquirer's stop-recurring answer, such as the stop order codes R0, R1, R3); a later /api/mit on it is refused without an acquirer call, and a new cardholder payment stores the card again.",
    ),
  mode: modeMemberSchema,
});

/**
 * Beyond the spec (issue 40): a dispute the acquirer reported, opened, changed, won or lost. In the
 * spec's style (lower-case names, every field always present, "" when unknown, amounts as strings of
 * minor units as in 2.3); docs/decisions/0200-the-dispute-notification-body.md.
 */
export const disputeNotificationSchema = z.object({
  disputeid: z.string().describe("The dispute's id at this service."),
  event: z
    .enum(["opened", "updated", "won", "lost"])
    .describe("What happened: opened (first seen), updated (its status, amount, dates or offered answers changed), won or lost (closed)."),
  paymentid: z.string().describe("The disputed payment; empty when the acquirer's transaction matches none of your payments."),
  merchantpaymentid: merchantPaymentId,
  operationid: z.string().describe("The disputed operation (the capture or authorization the acquirer names); empty when unknown."),
  processor: processorName,
  type: z
    .enum(["retrieval-request", "chargeback", "second-chargeback"])
    .describe("retrieval-request (the issuer asks for a copy; no money moves yet), chargeback, second-chargeback (pre-arbitration)."),
  status: z
    .enum(["open", "under-review", "refuted", "accepted", "won", "lost"])
    .describe("open (waiting for your answer until dueon), under-review, refuted, accepted, won or lost."),
  reasoncode: z.string().describe("The card scheme's reason code, verbatim (4837, 10.4, ...)."),
  reason: z.string().describe("The acquirer's reason category, verbatim (fraud, duplicate, ...)."),
  amount: z.string().describe("The disputed amount in minor units, as a string (as 2.3)."),
  currency: z.string().describe("ISO 4217 alpha-3 code."),
  partial: z.boolean().describe("True when only part of the transaction's amount is disputed."),
  openedon: z.string().describe("The day the acquirer opened it, YYYY-MM-DD (the acquirer's calendar)."),
  dueon: z.string().describe("The last day to answer, YYYY-MM-DD; empty when the acquirer gives none. Unanswered disputes are lost by default."),
  expireson: z.string().describe("The day it expires at the acquirer, YYYY-MM-DD; empty when none."),
  answers: z.array(z.enum(["refute", "accept"])).describe("The answers the acquirer offers now; empty when none is possible."),
  mode: modeMemberSchema,
});

/** The back office's "send test notification" (beyond the spec): says nothing about a payment. */
export const testNotificationSchema = z.object({
  type: z.literal("test").describe("Always test."),
  merchantid: z.string().describe("Your merchant id."),
  message: z.string().describe("A human-readable line saying this is a test."),
  created: z.string().describe("UTC, YYYY-MM-DD HH:MM:SS."),
  mode: modeMemberSchema,
});
