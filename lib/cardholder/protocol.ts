// The messages between dynamic.js on the merchant page, the hosted-field frames and our server.
// Shared by the browser bundles and the server; its schemas use the small combinators of
// wire-schema.ts (zod's shape, a tenth of zod/mini's bytes in a bundle).
//
// Three channels, each with its own check:
// - merchant page <-> our frames: window.postMessage, sent with an exact targetOrigin and accepted
//   only from the expected window (event.source) AND the expected origin (event.origin), and only
//   when the message carries this page's random channel id and the session id;
// - our frames <-> each other: a BroadcastChannel named after the session and the channel id
//   (same origin by construction: BroadcastChannel never crosses origins);
// - our frames -> our server: same-origin fetch to /dynamic/<sessionid>/payments.
import * as w from "./wire-schema";

/** The card fields of spec 2.1 plus the single strip. */
export const FIELD_KINDS = ["pan", "expmonth", "expyear", "securitycode", "ccsingle"] as const;
export type FieldKind = (typeof FIELD_KINDS)[number];
/** The values a field can hold (the single strip holds all four). */
export const CARD_PARTS = ["pan", "expmonth", "expyear", "securitycode"] as const;
export type CardPart = (typeof CARD_PARTS)[number];

/** Marks our messages among whatever else a merchant page posts around. */
export const PROTOCOL_TAG = "cps-hosted-fields/1";

/** Spec 6.1 error codes, then the documented extensions (docs/decisions/0047-callbacks-and-error-codes.md), with their texts. */
export const ERROR_TEXTS = {
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
  PAYMENT_PENDING: "The bank has not confirmed the payment yet. Do not pay again: the shop will be told the result.",
  TOO_MANY_ATTEMPTS: "Too many payment attempts in this payment window.",
  ALREADY_PAID: "This order has already been paid (its merchantpaymentid is used by another payment).",
  SERVICE_UNAVAILABLE: "The payment service is busy and nothing was charged; please try again in a moment.",
  TEST_CARD_REQUIRED: "This is a test payment: use a test card, such as 4111 1111 1111 1111. Real cards are not accepted in test mode.",
} satisfies Record<string, string>;
export type ErrorCode = keyof typeof ERROR_TEXTS;
export const ERROR_CODES = Object.keys(ERROR_TEXTS) as ErrorCode[];

const sessionId = w.string({ regex: /^[A-Za-z0-9]{1,64}$/ });
const channel = w.string({ regex: /^[A-Za-z0-9_-]{16,64}$/ });
const paymentId = w.nullable(w.string({ regex: /^[A-Za-z0-9]{1,32}$/ }));
const fieldKind = w.oneOf(FIELD_KINDS);
const errorCode = w.oneOf(ERROR_CODES);
/** Every frame of ours: the fields, the controller and the challenge page. */
const frameName = w.oneOf([...FIELD_KINDS, "controller", "challenge"]);

const envelope = { tag: w.oneOf([PROTOCOL_TAG]), sessionid: sessionId, channel };

/** A message between the merchant page and our frames: the envelope plus its own members. */
function envelopeMessage<S extends Record<string, w.WireSchema<unknown>>>(shape: S) {
  return w.object({ ...envelope, ...shape });
}

// ---- frame -> merchant page -------------------------------------------------------------------

/** A field's state; dynamic.js reflects it as CSS classes on the merchant's container. */
export const fieldStateSchema = w.object({
  empty: w.boolean(),
  focused: w.boolean(),
  /** Complete and passes every check (Luhn, expiry, length). */
  valid: w.boolean(),
  /** Shown as an error: not valid and the cardholder left the field (or asked to pay). */
  invalid: w.boolean(),
  /** Card brand of the number typed so far, when known. */
  brand: w.optional(w.string({ regex: /^[a-z]{2,16}$/ })),
});
export type FieldState = w.Infer<typeof fieldStateSchema>;

export const frameToPageSchema = w.union("type", [
  envelopeMessage({ type: w.oneOf(["ready"]), field: frameName }),
  envelopeMessage({ type: w.oneOf(["state"]), field: fieldKind, state: fieldStateSchema }),
  envelopeMessage({
    type: w.oneOf(["load-error"]),
    field: frameName,
    reason: w.string({ max: 200 }),
  }),
  envelopeMessage({ type: w.oneOf(["payment-started"]), paymentid: paymentId }),
  envelopeMessage({ type: w.oneOf(["payment-succeeded"]), paymentid: paymentId }),
  envelopeMessage({
    type: w.oneOf(["payment-failed"]),
    paymentid: paymentId,
    errorcode: errorCode,
    errortext: w.string({ max: 300 }),
  }),
  envelopeMessage({ type: w.oneOf(["payment-timeout"]) }),
  envelopeMessage({ type: w.oneOf(["challenge-required"]), paymentid: w.string(), url: w.string() }),
  envelopeMessage({
    type: w.oneOf(["challenge-finished"]),
    paymentid: w.string(),
    outcome: w.oneOf(["completed", "failed", "aborted"]),
  }),
]);
export type FrameToPage = w.Infer<typeof frameToPageSchema>;

// ---- merchant page -> frames ------------------------------------------------------------------

export const pageToFrameSchema = w.union("type", [
  envelopeMessage({ type: w.oneOf(["pay"]) }),
  envelopeMessage({ type: w.oneOf(["focus"]) }),
  envelopeMessage({ type: w.oneOf(["clear"]) }),
  envelopeMessage({ type: w.oneOf(["lock"]) }),
  envelopeMessage({ type: w.oneOf(["abort-challenge"]) }),
]);
export type PageToFrame = w.Infer<typeof pageToFrameSchema>;

// ---- frame <-> frame (BroadcastChannel) -------------------------------------------------------

const cardPartsSchema = w.object({
  pan: w.optional(w.string({ max: 32 })),
  expmonth: w.optional(w.string({ max: 4 })),
  expyear: w.optional(w.string({ max: 4 })),
  securitycode: w.optional(w.string({ max: 4 })),
});
export type CardParts = w.Infer<typeof cardPartsSchema>;

export const frameToFrameSchema = w.union("type", [
  /** The controller asks every field for its value. */
  w.object({ type: w.oneOf(["collect"]), requestId: w.string() }),
  w.object({ type: w.oneOf(["values"]), requestId: w.string(), field: fieldKind, values: cardPartsSchema, complete: w.boolean() }),
  /**
   * Move the focus to a field (keyboard navigation across frames). `carry` holds digits typed into
   * the previous field after it was complete, before the focus arrived: they belong to this field.
   */
  w.object({ type: w.oneOf(["focus"]), field: fieldKind, carry: w.optional(w.string({ regex: /^\d{1,4}$/ })) }),
  /** Another field learnt the brand (the security-code field adapts its length: 4 for amex). */
  w.object({ type: w.oneOf(["brand"]), brand: w.optional(w.string()) }),
  w.object({ type: w.oneOf(["lock"]) }),
  w.object({ type: w.oneOf(["clear"]) }),
  /** The challenge page tells the controller how the challenge ended. */
  w.object({ type: w.oneOf(["challenge-result"]), paymentid: w.string(), outcome: w.oneOf(["completed", "failed", "aborted"]) }),
]);
export type FrameToFrame = w.Infer<typeof frameToFrameSchema>;

export function broadcastChannelName(sessionid: string, channelId: string): string {
  return `cps:${sessionid}:${channelId}`;
}

// ---- controller frame -> our server -----------------------------------------------------------

/** Browser facts that 3-D Secure 2 sends to the issuer (EMV 3DS browser data). */
export const browserInfoSchema = w.object({
  language: w.string({ max: 35 }),
  colorDepth: w.number(),
  screenHeight: w.number(),
  screenWidth: w.number(),
  timeZoneOffset: w.number(),
  javaEnabled: w.boolean(),
});
export type BrowserInfo = w.Infer<typeof browserInfoSchema>;

/** POST /dynamic/<sessionid>/payments: opens the payment (no card data yet). */
export const startPaymentResponseSchema = w.union("result", [
  w.object({ result: w.oneOf(["started"]), paymentid: w.string() }),
  w.object({ result: w.oneOf(["failed"]), paymentid: paymentId, errorcode: errorCode, errortext: w.string() }),
]);
export type StartPaymentResponse = w.Infer<typeof startPaymentResponseSchema>;

/** POST /dynamic/<sessionid>/payments/<paymentid>/authorize: the one request that carries the card. */
export const authorizeRequestSchema = w.object({
  card: w.optional(cardPartsSchema),
  browser: w.optional(browserInfoSchema),
  /** The frames' origin binding, passed on to the 3-D Secure notification page. */
  binding: w.optional(w.string({ max: 600 })),
});
export type AuthorizeRequestBody = w.Infer<typeof authorizeRequestSchema>;

export const payResultSchema = w.union("result", [
  w.object({ result: w.oneOf(["approved"]), paymentid: w.string() }),
  w.object({ result: w.oneOf(["failed"]), paymentid: paymentId, errorcode: errorCode, errortext: w.string() }),
  w.object({ result: w.oneOf(["challenge"]), paymentid: w.string(), url: w.string() }),
  w.object({ result: w.oneOf(["timeout"]), paymentid: paymentId }),
  /** Run the 3DS Method (our hidden method page at `url`), then send the card again to authorize. */
  w.object({ result: w.oneOf(["method"]), paymentid: w.string(), url: w.string() }),
]);
export type PayResult = w.Infer<typeof payResultSchema>;

/** What dynamic.js reads from the configuration the server puts in front of the bundle. */
export const scriptConfigSchema = w.object({
  sessionid: sessionId,
  /** Our origin (where the frames live). */
  origin: w.string(),
  /** Signed binding of this session to the merchant page's origin, passed on to every frame. */
  binding: w.string(),
  elements: w.object({
    pan: w.string(),
    expmonth: w.string(),
    expyear: w.string(),
    securitycode: w.string(),
    ccsingle: w.string(),
    challenge: w.string(),
  }),
  /** Milliseconds until the payment window closes (negative: already closed). */
  expiresInMs: w.number(),
  /** Set when the session cannot take a payment (unknown, expired, finished). */
  closedReason: w.optional(w.string()),
  /** A payment on behalf of a stored paymentid: no card fields are shown. */
  onBehalf: w.boolean(),
  /** Pixel heights of the field frames for the session's styling (lib/cardholder/field-frame-height.ts). */
  frameHeights: w.optional(w.object({ field: w.number(), single: w.number() })),
});
export type ScriptConfig = w.Infer<typeof scriptConfigSchema>;

/** Frame page configuration (in a JSON script element of the page). */
export const frameConfigSchema = w.object({
  sessionid: sessionId,
  field: frameName,
  /** The merchant page's origin, the only one messages go to and come from. */
  parentOrigin: w.string(),
  channel,
  /** For the challenge page: the payment under challenge. */
  paymentid: w.optional(w.string()),
  /** Milliseconds until the window closes: the fields lock themselves then, whatever the page does. */
  expiresInMs: w.optional(w.number()),
});
export type FrameConfig = w.Infer<typeof frameConfigSchema>;

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
