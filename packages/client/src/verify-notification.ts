// Checks that a notification comes from the service (Standard Webhooks signature, with the
// `standardwebhooks` library the service signs with) and types its body by the
// X-CPS-Notification-Kind header, and says its mode (test or live) from the signed body. The kinds and
// bodies are read from the generated OpenAPI types (the document's `webhooks`), so a kind the
// document adds fails to compile here until it is mapped.
import { Webhook, WebhookVerificationError } from "standardwebhooks";
import type { webhooks } from "./schema.js";

export { WebhookVerificationError };

export const NOTIFICATION_KIND_HEADER = "x-cps-notification-kind";
/** test or live, as the body's `mode` says (the body is what the signature covers). */
export const NOTIFICATION_MODE_HEADER = "x-cps-notification-mode";

/** A notification's mode: test (a test key made it: no money moved) or live. */
export type NotificationMode = "test" | "live";

type WebhookName = keyof webhooks;
type WebhookOperation<W extends WebhookName> = NonNullable<webhooks[W]["post"]>;
type KindOf<W extends WebhookName> = WebhookOperation<W>["parameters"]["header"]["X-CPS-Notification-Kind"];
type BodyOf<W extends WebhookName> = WebhookOperation<W>["requestBody"]["content"]["application/json"];

/** Every value of X-CPS-Notification-Kind the document declares. */
export type NotificationKind = { [W in WebhookName]: KindOf<W> }[WebhookName];

/** A verified notification: switch on `kind` and `body` has that notification's type. */
export type VerifiedNotification = {
  [W in WebhookName]: {
    [K in KindOf<W>]: {
      kind: K;
      /** The document's webhook entry this kind belongs to. */
      webhook: W;
      /** webhook-id: the same on every retry of one notification, so it de-duplicates. */
      id: string;
      /** When this attempt was signed (webhook-timestamp). */
      timestamp: Date;
      /**
       * test or live, from the signed body's `mode`: act on live notifications only in production
       * (a test notification reports test cards and sandboxes, never money that moved).
       */
      mode: NotificationMode;
      body: BodyOf<W>;
    };
  }[KindOf<W>];
}[WebhookName];

// Typed both ways: a kind missing here, or one the document does not declare, fails to compile.
const WEBHOOK_OF_KIND: { [K in NotificationKind]: Extract<VerifiedNotification, { kind: K }>["webhook"] } = {
  completion: "completionNotification",
  mit: "mitNotification",
  capture: "operationNotification",
  refund: "operationNotification",
  void: "operationNotification",
  payout: "operationNotification",
  operation: "operationNotification",
  "payment-details": "paymentDetailsNotification",
  lifecycle: "lifecycleNotification",
  dispute: "disputeNotification",
  test: "testNotification",
};

export type HeaderBag = Headers | Record<string, string | string[] | undefined>;

function header(headers: HeaderBag, name: string): string | undefined {
  if (typeof (headers as Headers).get === "function") return (headers as Headers).get(name) ?? undefined;
  const bag = headers as Record<string, string | string[] | undefined>;
  const key = Object.keys(bag).find((candidate) => candidate.toLowerCase() === name);
  const value = key === undefined ? undefined : bag[key];
  return Array.isArray(value) ? value.join(", ") : value;
}

export interface VerifyNotificationOptions {
  /**
   * The merchant's notification signing secret of the receiver's mode, `whsec_...` (back office,
   * Settings → API-key, in that mode). Test and live notifications are signed with different secrets.
   */
  secret: string;
  /**
   * The mode this receiver serves: a notification of the other mode is refused even when its
   * signature verifies (a receiver given both secrets, by mistake or for convenience).
   */
  mode?: "test" | "live";
  /** The request's headers: a fetch `Headers`, or node:http's `req.headers`. */
  headers: HeaderBag;
  /** The raw body exactly as received: verify before parsing, a re-serialized object will not match. */
  body: string | Uint8Array;
}

/**
 * Returns the notification typed by its kind, or throws `WebhookVerificationError` when the
 * signature does not match the body and secret, the timestamp is more than five minutes from this
 * machine's clock (a replay), the kind header is missing or unknown, or the signed body is not of
 * `mode` when one is given. Answer 200 only after it
 * returned; any other answer makes the service retry.
 */
export function verifyNotification({ secret, headers, body, mode: expectedMode }: VerifyNotificationOptions): VerifiedNotification {
  const raw = typeof body === "string" ? body : new TextDecoder().decode(body);
  const id = header(headers, "webhook-id");
  const timestamp = header(headers, "webhook-timestamp");
  const signature = header(headers, "webhook-signature");
  if (!id || !timestamp || !signature) throw new WebhookVerificationError("Missing required headers");
  const parsed = new Webhook(secret).verify(raw, { "webhook-id": id, "webhook-timestamp": timestamp, "webhook-signature": signature });

  // The kind header is outside the signature: it only routes; the body it types is the signed one.
  const kind = header(headers, NOTIFICATION_KIND_HEADER) as NotificationKind | undefined;
  if (!kind || !Object.hasOwn(WEBHOOK_OF_KIND, kind)) throw new WebhookVerificationError(`Unknown notification kind: ${kind ?? "(none)"}`);
  if (typeof parsed !== "object" || parsed === null) throw new WebhookVerificationError("The body is not a JSON object");
  // The mode is read from the signed body; the header beside it only routes, as the kind's does.
  const mode = (parsed as { mode?: unknown }).mode;
  if (mode !== "test" && mode !== "live") throw new WebhookVerificationError(`Unknown notification mode: ${String(mode)}`);
  if (expectedMode !== undefined && mode !== expectedMode) throw new WebhookVerificationError(`A ${mode} notification, not ${expectedMode}`);
  return {
    kind,
    webhook: WEBHOOK_OF_KIND[kind],
    id,
    timestamp: new Date(Number(timestamp) * 1000),
    mode,
    body: parsed,
  } as VerifiedNotification;
}
