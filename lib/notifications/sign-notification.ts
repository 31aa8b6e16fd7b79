// Notification authenticity (spec 6.7, decided): Standard Webhooks signatures, made with the
// `standardwebhooks` library, the same one merchants verify with (packages/client's
// verifyNotification), so signer and verifier cannot drift apart. The merchant's secret is "whsec_" +
// base64 key bytes; the signature is HMAC-SHA256 over "<id>.<timestamp>.<body>", sent as
// `webhook-signature: v1,<base64>` next to `webhook-id` and `webhook-timestamp`. While a rolled secret
// is in its overlap the header carries one signature per valid secret, space separated, as the
// Standard Webhooks specification allows ("v1,<new> v1,<old>"): a receiver with either verifies.
import { timingSafeEqual } from "node:crypto";
import { Webhook } from "standardwebhooks";

/** Receivers should refuse timestamps further than this from their clock (replays). */
export const SIGNATURE_TOLERANCE_SECONDS = 5 * 60;

export interface SignatureHeaders {
  "webhook-id": string;
  "webhook-timestamp": string;
  "webhook-signature": string;
}

/** The base64 signature (without its `v1,` version) of one message. */
export function computeSignature({ secret, id, timestamp, body }: { secret: string; id: string; timestamp: number; body: string }): string {
  return new Webhook(secret).sign(id, new Date(timestamp * 1000), body).slice("v1,".length);
}

export function signNotification({
  secret,
  id,
  body,
  now = new Date(),
}: {
  /** The merchant's valid secrets (newest first), or one. */
  secret: string | string[];
  id: string;
  body: string;
  now?: Date;
}): SignatureHeaders {
  const timestamp = Math.floor(now.getTime() / 1000);
  const secrets = Array.isArray(secret) ? secret : [secret];
  if (secrets.length === 0) throw new Error("no signing secret to sign the notification with");
  return {
    "webhook-id": id,
    "webhook-timestamp": String(timestamp),
    "webhook-signature": secrets.map((each) => new Webhook(each).sign(id, new Date(timestamp * 1000), body)).join(" "),
  };
}

/**
 * What a merchant does on receipt (used by the tests' receivers): recompute the signature over the
 * raw body, compare in constant time, and refuse stale timestamps. The library's own `verify` reads
 * the wall clock; this one takes `now` so tests can check the replay window at its edges.
 */
export function verifyNotificationSignature({
  secret,
  headers,
  body,
  now = new Date(),
  toleranceSeconds = SIGNATURE_TOLERANCE_SECONDS,
}: {
  secret: string;
  headers: { id?: string | null; timestamp?: string | null; signature?: string | null };
  body: string;
  now?: Date;
  toleranceSeconds?: number;
}): boolean {
  const { id, timestamp, signature } = headers;
  if (!id || !timestamp || !signature || !/^\d+$/.test(timestamp)) return false;
  const seconds = Number(timestamp);
  if (Math.abs(now.getTime() / 1000 - seconds) > toleranceSeconds) return false;
  const expected = Buffer.from(computeSignature({ secret, id, timestamp: seconds, body }), "base64");
  return signature.split(" ").some((candidate) => {
    const [version, value] = candidate.split(",", 2);
    if (version !== "v1" || !value) return false;
    const given = Buffer.from(value, "base64");
    return given.length === expected.length && timingSafeEqual(given, expected);
  });
}
