import { describe, expect, it } from "vitest";
import { computeSignature, signNotification, verifyNotificationSignature } from "@/lib/notifications/sign-notification";

// The published Standard Webhooks / Svix test vector.
const secret = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";
const id = "msg_p5jXN8AQM9LWM0D4loKWxJek";
const timestamp = 1614265330;
const body = '{"test": 2432232314}';
const expected = "v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=";

describe("Standard Webhooks signature", () => {
  it("matches the published test vector", () => {
    expect(`v1,${computeSignature({ secret, id, timestamp, body })}`).toBe(expected);
    expect(signNotification({ secret, id, body, now: new Date(timestamp * 1000) })).toEqual({
      "webhook-id": id,
      "webhook-timestamp": String(timestamp),
      "webhook-signature": expected,
    });
  });

  it("verifies the vector and refuses changes to body, id, timestamp or secret", () => {
    const now = new Date(timestamp * 1000 + 10_000);
    const headers = { id, timestamp: String(timestamp), signature: expected };
    expect(verifyNotificationSignature({ secret, headers, body, now })).toBe(true);
    expect(verifyNotificationSignature({ secret, headers, body: body.replace("2432", "2433"), now })).toBe(false);
    expect(verifyNotificationSignature({ secret, headers: { ...headers, id: "msg_other" }, body, now })).toBe(false);
    expect(verifyNotificationSignature({ secret, headers: { ...headers, timestamp: String(timestamp + 1) }, body, now })).toBe(false);
    expect(verifyNotificationSignature({ secret: "whsec_" + Buffer.from("another key").toString("base64"), headers, body, now })).toBe(
      false,
    );
  });

  it("refuses stale or future timestamps (replays) beyond five minutes", () => {
    const headers = { id, timestamp: String(timestamp), signature: expected };
    expect(verifyNotificationSignature({ secret, headers, body, now: new Date((timestamp + 301) * 1000) })).toBe(false);
    expect(verifyNotificationSignature({ secret, headers, body, now: new Date((timestamp - 301) * 1000) })).toBe(false);
  });

  it("accepts any matching signature of a space-separated list (key rotation) and ignores other versions", () => {
    const now = new Date(timestamp * 1000);
    const headers = { id, timestamp: String(timestamp), signature: `v1a,xyz v1,AAAA ${expected}` };
    expect(verifyNotificationSignature({ secret, headers, body, now })).toBe(true);
    expect(
      verifyNotificationSignature({
        secret,
        headers: { ...headers, signature: "v2,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=" },
        body,
        now,
      }),
    ).toBe(false);
    expect(verifyNotificationSignature({ secret, headers: { ...headers, signature: null }, body, now })).toBe(false);
  });
});
