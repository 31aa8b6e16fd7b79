// The messages between dynamic.js on the merchant page, the hosted-field frames and our server.
// Shared by the browser bundles and the server, so it uses zod/mini (a few kB in a bundle).
//
// Three channels, each with its own check:
// - merchant page <-> our frames: window.postMessage, sent with an exact targetOrigin and accepted
//   only from the expected window (event.source) AND the expected origin (event.origin), and only
//   when the message carries this page's random channel id and the session id;
// - our frames <-> each other: a BroadcastChannel named after the session and the channel id
//   (same origin by construction: BroadcastChannel never crosses origins);
// - our frames -> our server: same-origin fetch to /dynamic/<sessionid>/payments.
import * as z from "zod/mini";

/** The card fields of spec 2.1 plus the single strip. */
export const FIELD_KINDS = ["pan", "expmonth", "expyear", "securitycode", "ccsingle"] as const;
export type FieldKind = (typeof FIELD_KINDS)[number];
/** The values a field can hold (the single strip holds all four). */
export const CARD_PARTS = ["pan", "expmonth", "expyear", "securitycode"] as const;
export type CardPart = (typeof CARD_PARTS)[number];

/** Marks our messages among whatever else a merchant page posts around. */
export const PROTOCOL_TAG = "cps-hosted-fields/1";

/** Spec 6.1 error codes, then the documented extensions (docs/decisions.md, "Cardholder flow"). */
export const ERROR_CODES = [
  "PAN_MISSING",
  "EXPMONTH_MISSING",
  "EXPYEAR_MISSING",
  "CVC_MISSING",
  "PAYMENT_TIMEOUT",
  "PAN_INVALID",
  "EXPIRY_INVALID",
  "CVC_INVALID",
  "AUTHENTICATION_FAILED",
  "PAYMENT_DECLINED",
  "PAYMENT_ERROR",
  "PAYMENT_IN_PROGRESS",
  "TOO_MANY_ATTEMPTS",
  "ALREADY_PAID",
] as const;
export type ErrorCode = (typeof ERROR_CODES)[number];

export const ERROR_TEXTS: Record<ErrorCode, string> = {
  PAN_MISSING: "The card number is missing.",
  EXPMONTH_MISSING: "The expiry month is missing.",
  EXPYEAR_MISSING: "The expiry year is missing.",
  CVC_MISSING: "The security code is missing.",
  PAYMENT_TIMEOUT: "The payment window has timed out.",
  PAN_INVALID: "The card number is not valid.",
  EXPIRY_INVALID: "The expiry date is not valid or the card has expired.",
  CVC_INVALID: "The security code is not valid.",
  AUTHENTICATION_FAILED: "The cardholder could not be authenticated (3-D Secure).",
  PAYMENT_DECLINED: "The payment was declined.",
  PAYMENT_ERROR: "The payment could not be completed because of a technical error.",
  PAYMENT_IN_PROGRESS: "A payment is already in progress for this session.",
  TOO_MANY_ATTEMPTS: "Too many payment attempts in this payment window.",
  ALREADY_PAID: "This order has already been paid (its merchantpaymentid is used by another payment).",
};

const sessionId = z.string().check(z.regex(/^[A-Za-z0-9]{1,64}$/));
const channel = z.string().check(z.regex(/^[A-Za-z0-9_-]{16,64}$/));
const paymentId = z.nullable(z.string().check(z.regex(/^[A-Za-z0-9]{1,32}$/)));
const fieldKind = z.enum(FIELD_KINDS);
const errorCode = z.enum(ERROR_CODES);

const envelope = { tag: z.literal(PROTOCOL_TAG), sessionid: sessionId, channel };

// ---- frame -> merchant page -------------------------------------------------------------------

/** A field's state; dynamic.js reflects it as CSS classes on the merchant's container. */
export const fieldStateSchema = z.object({
  empty: z.boolean(),
  focused: z.boolean(),
  /** Complete and passes every check (Luhn, expiry, length). */
  valid: z.boolean(),
  /** Shown as an error: not valid and the cardholder left the field (or asked to pay). */
  invalid: z.boolean(),
  /** Card brand of the number typed so far, when known. */
  brand: z.optional(z.string().check(z.regex(/^[a-z]{2,16}$/))),
});
export type FieldState = z.infer<typeof fieldStateSchema>;

export const frameToPageSchema = z.discriminatedUnion("type", [
  z.object({ ...envelope, type: z.literal("ready"), field: z.union([fieldKind, z.literal("controller"), z.literal("challenge")]) }),
  z.object({ ...envelope, type: z.literal("state"), field: fieldKind, state: fieldStateSchema }),
  z.object({
    ...envelope,
    type: z.literal("load-error"),
    field: z.union([fieldKind, z.literal("controller"), z.literal("challenge")]),
    reason: z.string().check(z.maxLength(200)),
  }),
  z.object({ ...envelope, type: z.literal("payment-started"), paymentid: paymentId }),
  z.object({ ...envelope, type: z.literal("payment-succeeded"), paymentid: paymentId }),
  z.object({
    ...envelope,
    type: z.literal("payment-failed"),
    paymentid: paymentId,
    errorcode: errorCode,
    errortext: z.string().check(z.maxLength(300)),
  }),
  z.object({ ...envelope, type: z.literal("payment-timeout") }),
  z.object({ ...envelope, type: z.literal("challenge-required"), paymentid: z.string(), url: z.string() }),
  z.object({
    ...envelope,
    type: z.literal("challenge-finished"),
    paymentid: z.string(),
    outcome: z.enum(["completed", "failed", "aborted"]),
  }),
]);
export type FrameToPage = z.infer<typeof frameToPageSchema>;

// ---- merchant page -> frames ------------------------------------------------------------------

export const pageToFrameSchema = z.discriminatedUnion("type", [
  z.object({ ...envelope, type: z.literal("pay") }),
  z.object({ ...envelope, type: z.literal("focus") }),
  z.object({ ...envelope, type: z.literal("clear") }),
  z.object({ ...envelope, type: z.literal("lock") }),
  z.object({ ...envelope, type: z.literal("abort-challenge") }),
]);
export type PageToFrame = z.infer<typeof pageToFrameSchema>;

// ---- frame <-> frame (BroadcastChannel) -------------------------------------------------------

const cardPartsSchema = z.object({
  pan: z.optional(z.string().check(z.maxLength(32))),
  expmonth: z.optional(z.string().check(z.maxLength(4))),
  expyear: z.optional(z.string().check(z.maxLength(4))),
  securitycode: z.optional(z.string().check(z.maxLength(4))),
});
export type CardParts = z.infer<typeof cardPartsSchema>;

export const frameToFrameSchema = z.discriminatedUnion("type", [
  /** The controller asks every field for its value. */
  z.object({ type: z.literal("collect"), requestId: z.string() }),
  z.object({ type: z.literal("values"), requestId: z.string(), field: fieldKind, values: cardPartsSchema, complete: z.boolean() }),
  /**
   * Move the focus to a field (keyboard navigation across frames). `carry` holds digits typed into
   * the previous field after it was complete, before the focus arrived: they belong to this field.
   */
  z.object({ type: z.literal("focus"), field: fieldKind, carry: z.optional(z.string().check(z.regex(/^\d{1,4}$/))) }),
  /** Another field learnt the brand (the security-code field adapts its length: 4 for amex). */
  z.object({ type: z.literal("brand"), brand: z.optional(z.string()) }),
  z.object({ type: z.literal("lock") }),
  z.object({ type: z.literal("clear") }),
  /** The challenge page tells the controller how the challenge ended. */
  z.object({ type: z.literal("challenge-result"), paymentid: z.string(), outcome: z.enum(["completed", "failed", "aborted"]) }),
]);
export type FrameToFrame = z.infer<typeof frameToFrameSchema>;

export function broadcastChannelName(sessionid: string, channelId: string): string {
  return `cps:${sessionid}:${channelId}`;
}

// ---- controller frame -> our server -----------------------------------------------------------

/** Browser facts that 3-D Secure 2 sends to the issuer (EMV 3DS browser data). */
export const browserInfoSchema = z.object({
  language: z.string().check(z.maxLength(35)),
  colorDepth: z.number(),
  screenHeight: z.number(),
  screenWidth: z.number(),
  timeZoneOffset: z.number(),
  javaEnabled: z.boolean(),
});
export type BrowserInfo = z.infer<typeof browserInfoSchema>;

/** POST /dynamic/<sessionid>/payments: opens the payment (no card data yet). */
export const startPaymentResponseSchema = z.discriminatedUnion("result", [
  z.object({ result: z.literal("started"), paymentid: z.string() }),
  z.object({ result: z.literal("failed"), paymentid: paymentId, errorcode: errorCode, errortext: z.string() }),
]);
export type StartPaymentResponse = z.infer<typeof startPaymentResponseSchema>;

/** POST /dynamic/<sessionid>/payments/<paymentid>/authorize: the one request that carries the card. */
export const authorizeRequestSchema = z.object({
  card: z.optional(cardPartsSchema),
  browser: z.optional(browserInfoSchema),
  /** The frames' origin binding, passed on to the 3-D Secure notification page. */
  binding: z.optional(z.string().check(z.maxLength(600))),
});
export type AuthorizeRequestBody = z.infer<typeof authorizeRequestSchema>;

export const payResultSchema = z.discriminatedUnion("result", [
  z.object({ result: z.literal("approved"), paymentid: z.string() }),
  z.object({ result: z.literal("failed"), paymentid: paymentId, errorcode: errorCode, errortext: z.string() }),
  z.object({ result: z.literal("challenge"), paymentid: z.string(), url: z.string() }),
  z.object({ result: z.literal("timeout"), paymentid: paymentId }),
]);
export type PayResult = z.infer<typeof payResultSchema>;

/** What dynamic.js reads from the configuration the server puts in front of the bundle. */
export const scriptConfigSchema = z.object({
  sessionid: sessionId,
  /** Our origin (where the frames live). */
  origin: z.string(),
  /** Signed binding of this session to the merchant page's origin, passed on to every frame. */
  binding: z.string(),
  elements: z.object({
    pan: z.string(),
    expmonth: z.string(),
    expyear: z.string(),
    securitycode: z.string(),
    ccsingle: z.string(),
    challenge: z.string(),
  }),
  /** Milliseconds until the payment window closes (negative: already closed). */
  expiresInMs: z.number(),
  /** Set when the session cannot take a payment (unknown, expired, finished). */
  closedReason: z.optional(z.string()),
  /** A payment on behalf of a stored paymentid: no card fields are shown. */
  onBehalf: z.boolean(),
});
export type ScriptConfig = z.infer<typeof scriptConfigSchema>;

/** Frame page configuration (in a JSON script element of the page). */
export const frameConfigSchema = z.object({
  sessionid: sessionId,
  field: z.union([fieldKind, z.literal("controller"), z.literal("challenge")]),
  /** The merchant page's origin, the only one messages go to and come from. */
  parentOrigin: z.string(),
  channel,
  /** For the challenge page: the payment under challenge. */
  paymentid: z.optional(z.string()),
  /** Milliseconds until the window closes: the fields lock themselves then, whatever the page does. */
  expiresInMs: z.optional(z.number()),
});
export type FrameConfig = z.infer<typeof frameConfigSchema>;

/** CSS classes dynamic.js puts on the merchant's containers. */
export const CONTAINER_CLASSES = {
  base: "cps-field",
  focused: "cps-focused",
  empty: "cps-empty",
  valid: "cps-valid",
  invalid: "cps-invalid",
  loadError: "cps-load-error",
  brandPrefix: "cps-brand-",
} as const;
