// POST /api/initdynamic (spec 4.1): the request that opens a cardholder payment window.
import { z } from "zod";
import {
  amountSchema,
  currencySchema,
  labelSchema,
  merchantIdSchema,
  notificationUrlSchema,
  paymentIdSchema,
  processorSchema,
} from "./common";

export const SESSION_TIMEOUT_DEFAULT_SECONDS = 900;
export const SESSION_TIMEOUT_MAX_SECONDS = 1200;
export const MERCHANT_DATA_MAX_CHARS = 4096;

/** An HTML element id the hosted fields are mounted into. */
const elementIdSchema = z
  .string({ error: "must be a string" })
  .regex(/^[A-Za-z][A-Za-z0-9_:.-]{0,63}$/, "must be an HTML id: a letter, then up to 63 of a-z, A-Z, 0-9, _ : . -");

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

export const initSessionRequestSchema = z.strictObject({
  merchantid: merchantIdSchema,
  merchantpaymentid: paymentIdSchema.optional(),
  newmerchantpaymentid: paymentIdSchema.optional(),
  amount: amountSchema,
  currency: currencySchema,
  reference: labelSchema.optional(),
  idpan: elementIdSchema.default("pan"),
  idexpmonth: elementIdSchema.default("expmonth"),
  idexpyear: elementIdSchema.default("expyear"),
  idsecuritycode: elementIdSchema.default("securitycode"),
  // The spec's example sends a lower-case value, so case is ignored.
  set3ds: z
    .string({ error: "must be one of SKIP_3DS, FORCE_3DS, FALLBACK_3DS" })
    .transform((value) => value.toUpperCase())
    .pipe(z.enum(THREE_DS_MODES, { error: "must be one of SKIP_3DS, FORCE_3DS, FALLBACK_3DS" }))
    .default("FORCE_3DS"),
  rule: integerFromJson("must be 1 (primary routing) or 2 (secondary routing)")
    .pipe(z.union([z.literal(1), z.literal(2)], { error: "must be 1 (primary routing) or 2 (secondary routing)" }))
    .default(1),
  timeout: integerFromJson(`must be a whole number of seconds from 1 to ${SESSION_TIMEOUT_MAX_SECONDS}`)
    .pipe(
      z
        .number()
        .min(1, "must be at least 1 second")
        .max(SESSION_TIMEOUT_MAX_SECONDS, `must be at most ${SESSION_TIMEOUT_MAX_SECONDS} seconds`),
    )
    .default(SESSION_TIMEOUT_DEFAULT_SECONDS),
  paymentid: paymentIdSchema.optional(),
  hostedid: z.string({ error: "must be a string" }).min(1, "must not be empty").max(64, "must be at most 64 characters").optional(),
  instantcapture: integerFromJson("must be 0, 1 or 2")
    .pipe(
      z.union([z.literal(0), z.literal(1), z.literal(2)], {
        error: "must be 0 (no instant capture), 1 (capture, void on failure) or 2 (capture, keep authorization on failure)",
      }),
    )
    .default(0),
  processor: z
    // One name is read as a list of one.
    .preprocess(
      (value) => (typeof value === "string" ? [value] : value),
      z.array(processorSchema, { error: "must be a list of finaro, clearhaus, bambora" }),
    )
    .refine((list) => new Set(list).size === list.length, "must not name a processor twice")
    .default([]),
  merchantdata: z
    .string({ error: "must be a string" })
    .max(MERCHANT_DATA_MAX_CHARS, `must be at most ${MERCHANT_DATA_MAX_CHARS} characters`)
    .optional(),
  textonstatement: labelSchema.optional(),
  notificationurl: notificationUrlSchema.optional(),
  accepturl: notificationUrlSchema.optional(),
  cancelurl: notificationUrlSchema.optional(),
});

export type InitSessionRequest = z.infer<typeof initSessionRequestSchema>;
