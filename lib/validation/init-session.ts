// POST /api/initdynamic (spec 4.1): the request that opens a cardholder payment window.
import { z } from "zod";
import {
  amountField,
  currencyField,
  customerSchema,
  labelSchema,
  merchantIdSchema,
  paymentIdSchema,
  processorSchema,
  urlField,
} from "./common";
import { documentInput } from "./documented-input";
import { ACQUIRER_NAMES } from "../acquirers/names";

export const SESSION_TIMEOUT_DEFAULT_SECONDS = 900;
export const SESSION_TIMEOUT_MAX_SECONDS = 1200;
export const MERCHANT_DATA_MAX_CHARS = 4096;

const ELEMENT_ID = "^[A-Za-z][A-Za-z0-9_:.-]{0,63}$";
/** An HTML element id the hosted fields are mounted into. */
const elementIdSchema = z
  .string({ error: "must be a string" })
  .regex(new RegExp(ELEMENT_ID), "must be an HTML id: a letter, then up to 63 of a-z, A-Z, 0-9, _ : . -");

const elementIdField = (what: string, fallback: string) =>
  documentInput(elementIdSchema.describe(`Id of the element on your checkout page that receives the ${what} field.`).default(fallback), {
    schema: { type: "string", pattern: ELEMENT_ID, default: fallback },
  });

const THREE_DS_MODES = ["SKIP_3DS", "FORCE_3DS", "FALLBACK_3DS"] as const;

/** Integers may arrive as JSON numbers or digit strings; both are read the same. */
const integerFromJson = (message: string) =>
  z
    .union(
      [
        z.number(),
        z
          .string()
          .regex(/^[0-9]+$/)
          .transform(Number),
      ],
      { error: message },
    )
    .pipe(z.number().int(message));

/** Said of the integer fields that also take a digit string. */
const INTEGER_LENIENCY = 'Leniency: a string of digits ("1") is read as the same integer.';

export const initSessionRequestSchema = z.strictObject({
  merchantid: merchantIdSchema.describe("Your merchant id; it must be the API key's merchant."),
  merchantpaymentid: paymentIdSchema
    .describe(
      "Your reference for the new payment, unique among your payments; later calls (capture, refund, void, payout, lookup) may name the payment by it instead of its paymentid. With `newmerchantpaymentid` it names instead the stored payment whose card data pays (spec 4.1).",
    )
    .optional(),
  newmerchantpaymentid: paymentIdSchema
    .describe("When paying with the stored card data of an earlier payment (named by `paymentid` or `merchantpaymentid`): your reference for the new payment.")
    .optional(),
  amount: amountField(
    "Amount in minor units of `currency` (2.50 DKK is sent as 250). 0 authorizes nothing and only stores the card for later payments (a token).",
    { minimum: 0 },
  ),
  currency: currencyField("Currency of the amount."),
  reference: labelSchema.describe("Your order reference: 0 to 32 characters of a-z A-Z 0-9, hyphen and space.").optional(),
  idpan: elementIdField("card number", "pan"),
  idexpmonth: elementIdField("expiry month", "expmonth"),
  idexpyear: elementIdField("expiry year", "expyear"),
  idsecuritycode: elementIdField("security code (CVV/CVC)", "securitycode"),
  // The spec's example sends a lower-case value, so case is ignored.
  set3ds: documentInput(
    z
      .string({ error: "must be one of SKIP_3DS, FORCE_3DS, FALLBACK_3DS" })
      .transform((value) => value.toUpperCase())
      .pipe(z.enum(THREE_DS_MODES, { error: "must be one of SKIP_3DS, FORCE_3DS, FALLBACK_3DS" }))
      .describe(
        "How 3-D Secure is used. SKIP_3DS: not tried, the merchant carries the full liability. FORCE_3DS: the full flow, with a challenge when the issuer asks for one. FALLBACK_3DS: when the issuer asks for a challenge, authorize without 3-D Secure first, and run the challenge only if that authorization fails.",
      )
      .default("FORCE_3DS"),
    { schema: { type: "string", enum: [...THREE_DS_MODES], default: "FORCE_3DS" }, note: "Leniency: any letter case is accepted (force_3ds)." },
  ),
  rule: documentInput(
    integerFromJson("must be 1 (primary routing) or 2 (secondary routing)")
      .pipe(z.union([z.literal(1), z.literal(2)], { error: "must be 1 (primary routing) or 2 (secondary routing)" }))
      .describe("Which of your routing rules picks the processor when `processor` is absent: 1 the primary rule, 2 the secondary rule.")
      .default(1),
    { schema: { type: "integer", enum: [1, 2], default: 1 }, note: INTEGER_LENIENCY },
  ),
  timeout: documentInput(
    integerFromJson(`must be a whole number of seconds from 1 to ${SESSION_TIMEOUT_MAX_SECONDS}`)
      .pipe(
        z
          .number()
          .min(1, "must be at least 1 second")
          .max(SESSION_TIMEOUT_MAX_SECONDS, `must be at most ${SESSION_TIMEOUT_MAX_SECONDS} seconds`),
      )
      .describe(
        "Seconds the payment window stays open; when they elapse the window closes and the completion notification reports status timeout.",
      )
      .default(SESSION_TIMEOUT_DEFAULT_SECONDS),
    {
      schema: { type: "integer", minimum: 1, maximum: SESSION_TIMEOUT_MAX_SECONDS, default: SESSION_TIMEOUT_DEFAULT_SECONDS },
      note: INTEGER_LENIENCY,
    },
  ),
  paymentid: paymentIdSchema
    .describe("Pay with the stored card data of this earlier payment: the cardholder is not asked for card details.")
    .optional(),
  hostedid: z
    .string({ error: "must be a string" })
    .min(1, "must not be empty")
    .max(64, "must be at most 64 characters")
    .describe("Which of your hosted-field integrations (back office, Hosted fields) gives the notification addresses and the styling.")
    .optional(),
  instantcapture: documentInput(
    integerFromJson("must be 0, 1 or 2")
      .pipe(
        z.union([z.literal(0), z.literal(1), z.literal(2)], {
          error: "must be 0 (no instant capture), 1 (capture, void on failure) or 2 (capture, keep authorization on failure)",
        }),
      )
      .describe(
        "Capture right after an approved authorization. 0: no, capture later with POST /api/{paymentid}/capture. 1: capture at once, and void the authorization if the capture fails. 2: capture at once, and keep the authorization if the capture fails (capture it later yourself).",
      )
      .default(0),
    { schema: { type: "integer", enum: [0, 1, 2], default: 0 }, note: INTEGER_LENIENCY },
  ),
  processor: documentInput(
    z
      // One name is read as a list of one.
      .preprocess(
        (value) => (typeof value === "string" ? [value] : value),
        z.array(processorSchema, { error: `must be a list of ${ACQUIRER_NAMES.join(", ")}` }),
      )
      .refine((list) => new Set(list).size === list.length, "must not name a processor twice")
      .describe(
        "Processors to try, in order: when one declines or fails, the next is tried. Empty or absent: your routing rule (`rule`) decides.",
      )
      .default([]),
    {
      schema: { type: "array", items: { type: "string", enum: [...ACQUIRER_NAMES] }, uniqueItems: true, maxItems: ACQUIRER_NAMES.length },
      note: `Leniency: one name as a plain string ("${ACQUIRER_NAMES[0]}") is read as a list of one.`,
    },
  ),
  merchantdata: z
    .string({ error: "must be a string" })
    .max(MERCHANT_DATA_MAX_CHARS, `must be at most ${MERCHANT_DATA_MAX_CHARS} characters`)
    .describe("Your data, returned unchanged in the completion notification; Base64 is recommended.")
    .optional(),
  textonstatement: labelSchema
    .describe("Text on the cardholder's bank statement: 0 to 32 characters of a-z A-Z 0-9, hyphen and space.")
    .optional(),
  notificationurl: urlField("Where the completion notification is sent; absent: the hosted integration's or your configured address.").optional(),
  accepturl: urlField("Your page for an approved payment; stored with the session and echoed in the answer. The service does not redirect: your page does, from the browser callbacks.").optional(),
  cancelurl: urlField("Your page for a cancelled payment; stored with the session and echoed in the answer. The service does not redirect: your page does, from the browser callbacks.").optional(),
  // Not among spec 4.1's fields, but the object the spec's payment (2.2) and MIT request (4.3) carry:
  // the card schemes ask for the cardholder's name and e-mail in the 3-D Secure AReq (decision 0117).
  customer: customerSchema
    .describe(
      "The cardholder, as far as you know them (the object of the MIT request and of the payment's details). Stored with the payment the window opens; its name and e-mail go to the card issuer with 3-D Secure, which Visa and Mastercard ask for. The cardholder's browser address is taken from the browser, not from `ipaddress`.",
    )
    .optional(),
});

export type InitSessionRequest = z.infer<typeof initSessionRequestSchema>;
