// The client's verifyNotification against the service's own signer (lib/notifications): what a
// merchant's receiver accepts and refuses, and how it types the body by the kind header.
import { describe, expect, it } from "vitest";
import { verifyNotification, WebhookVerificationError, type VerifiedNotification } from "@/packages/client/src/index";
import { notificationKindHeader } from "@/lib/notifications/notification-kind-header";
import { signNotification } from "@/lib/notifications/sign-notification";

const secret = "whsec_" + Buffer.from("merchant-one-signing-key-32bytes").toString("base64");
const otherSecret = "whsec_" + Buffer.from("merchant-two-signing-key-32bytes").toString("base64");

const completion = {
  sessionid: "a".repeat(32),
  paymentid: "pay123",
  merchantpaymentid: "order42",
  newmerchantpaymentid: "",
  status: "approved",
  responsecode: "00",
  authorizationcode: "123456",
  processor: "clearhaus",
  tcardnumber: "411111xxxxxx1111",
  eci: "",
  merchantdata: "",
  par: "A".repeat(29),
  mode: "test",
};
const body = JSON.stringify(completion);

/** Headers exactly as deliverNotificationAttempt sends them, as node:http hands them to a receiver. */
function delivered({ kind = "completion", now = new Date(), sign = body } = {}): Record<string, string> {
  const headers = {
    ...notificationKindHeader(kind as Parameters<typeof notificationKindHeader>[0], "test"),
    ...signNotification({ secret, id: "01JNOTIFICATIONID", body: sign, now }),
  };
  return Object.fromEntries(Object.entries(headers).map(([name, value]) => [name.toLowerCase(), value]));
}

describe("verifyNotification (packages/client)", () => {
  it("accepts a genuine signature made by the service's signer and types the body by its kind", () => {
    const verified = verifyNotification({ secret, headers: delivered(), body });
    expect(verified.kind).toBe("completion");
    expect(verified.webhook).toBe("completionNotification");
    expect(verified.id).toBe("01JNOTIFICATIONID");
    expect(verified.mode).toBe("test");
    expect(verified.body).toEqual(completion);
    if (verified.kind === "completion") expect(verified.body.tcardnumber).toBe("411111xxxxxx1111");
  });

  it("takes a fetch Headers and a raw byte body as well", () => {
    const verified = verifyNotification({ secret, headers: new Headers(delivered()), body: new TextEncoder().encode(body) });
    expect(verified.body).toEqual(completion);
  });

  it("refuses a tampered body", () => {
    const tampered = body.replace('"approved"', '"declined"');
    expect(() => verifyNotification({ secret, headers: delivered(), body: tampered })).toThrow(WebhookVerificationError);
  });

  it("refuses a signature made with another merchant's secret", () => {
    expect(() => verifyNotification({ secret: otherSecret, headers: delivered(), body })).toThrow(WebhookVerificationError);
  });

  it("refuses a timestamp older than five minutes (a replay), and one too far in the future", () => {
    const sixMinutesAgo = new Date(Date.now() - 6 * 60_000);
    expect(() => verifyNotification({ secret, headers: delivered({ now: sixMinutesAgo }), body })).toThrow(/too old/);
    const inSixMinutes = new Date(Date.now() + 6 * 60_000);
    expect(() => verifyNotification({ secret, headers: delivered({ now: inSixMinutes }), body })).toThrow(/too new/);
    // Four minutes is within the window.
    expect(verifyNotification({ secret, headers: delivered({ now: new Date(Date.now() - 4 * 60_000) }), body }).kind).toBe("completion");
  });

  it("refuses a missing signature header and a missing or unknown kind", () => {
    const { "webhook-signature": _omitted, ...unsigned } = delivered();
    expect(() => verifyNotification({ secret, headers: unsigned, body })).toThrow(WebhookVerificationError);
    const { "x-cps-notification-kind": _kind, ...kindless } = delivered();
    expect(() => verifyNotification({ secret, headers: kindless, body })).toThrow(/kind/);
    expect(() => verifyNotification({ secret, headers: { ...delivered(), "x-cps-notification-kind": "chargeback" }, body })).toThrow(
      /kind/,
    );
  });

  it("says the notification's mode from the signed body, and refuses a body without one", () => {
    const live = JSON.stringify({ ...completion, mode: "live" });
    expect(verifyNotification({ secret, headers: delivered({ sign: live }), body: live }).mode).toBe("live");
    const { mode: _mode, ...modeless } = completion;
    const old = JSON.stringify(modeless);
    expect(() => verifyNotification({ secret, headers: delivered({ sign: old }), body: old })).toThrow(/mode/);
  });

  it("M1: with the receiver's mode given, refuses a genuinely signed notification of the other mode", () => {
    expect(verifyNotification({ secret, headers: delivered(), body, mode: "test" }).mode).toBe("test");
    expect(() => verifyNotification({ secret, headers: delivered(), body, mode: "live" })).toThrow(WebhookVerificationError);
  });

  it("maps every kind the service sends to its webhook entry", () => {
    const expected: Record<string, VerifiedNotification["webhook"]> = {
      completion: "completionNotification",
      mit: "mitNotification",
      capture: "operationNotification",
      refund: "operationNotification",
      void: "operationNotification",
      payout: "operationNotification",
      operation: "operationNotification",
      payment_details: "paymentDetailsNotification",
      lifecycle: "lifecycleNotification",
      test: "testNotification",
    };
    for (const [storedKind, webhook] of Object.entries(expected)) {
      expect(verifyNotification({ secret, headers: delivered({ kind: storedKind }), body }).webhook, storedKind).toBe(webhook);
    }
  });
});
