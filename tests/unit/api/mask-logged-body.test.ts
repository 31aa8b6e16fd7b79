// The bodies kept in the API request log: card numbers masked as everywhere (newcomer review F11).
import { describe, expect, it } from "vitest";
import { MAX_LOGGED_BODY, maskLoggedBody, maskLoggedValue } from "@/lib/api/mask-logged-body";

describe("maskLoggedBody", () => {
  it("masks card-number-like digits in any string, spaced or not, at any depth", () => {
    const masked = maskLoggedBody(JSON.stringify({ reference: "4111 1111 1111 1111", note: "card 5555555555554444 declined", items: [{ text: "4111-1111-1111-1111" }] }));
    expect(JSON.parse(masked!)).toEqual({ reference: "[redacted digits]", note: "card [redacted digits] declined", items: [{ text: "[redacted digits]" }] });
  });

  it("masks a card number sent as a JSON number, and keeps amounts", () => {
    expect(JSON.parse(maskLoggedValue({ amount: 4111111111111111, other: 99_999_999_999, small: 12500 }))).toEqual({ amount: "[redacted digits]", other: 99_999_999_999, small: 12500 });
  });

  it("censors the keys the logger censors", () => {
    expect(JSON.parse(maskLoggedValue({ pan: "anything", securitycode: "123", password: "x", deep: { cvc: "1" } }))).toEqual({ pan: "[redacted]", securitycode: "[redacted]", password: "[redacted]", deep: { cvc: "[redacted]" } });
  });

  it("keeps our own date-times, ids and the merchant's id readable", () => {
    const body = { created: "2026-11-21 08:32:37", at: "2026-11-21T08:32:37.123Z", paymentid: "0a1b2c3d4e5f60718293a4b5c6d7e8f9", merchantid: "123456789012" };
    expect(JSON.parse(maskLoggedValue(body, { keep: ["123456789012"] }))).toEqual(body);
    expect(JSON.parse(maskLoggedValue({ merchantid: 123456789012 }, { keep: ["123456789012"] }))).toEqual({ merchantid: 123456789012 });
    // Without the keep list a 12-digit id is still readable unless it is a card number (Luhn-valid, a scheme's prefix).
    expect(JSON.parse(maskLoggedValue({ merchantid: "123456789012" }))).toEqual({ merchantid: "123456789012" });
    expect(JSON.parse(maskLoggedValue({ merchantid: "501800000009" }))).toEqual({ merchantid: "[redacted digits]" });
  });

  it("masks a body that is not JSON as text, keeps nothing of an empty one, and cuts a long one", () => {
    expect(maskLoggedBody('{"reference": "4111111111111111"')).toBe('{"reference": "[redacted digits]"');
    expect(maskLoggedBody("")).toBeNull();
    expect(maskLoggedBody(undefined)).toBeNull();
    const long = maskLoggedBody(JSON.stringify({ note: "a".repeat(MAX_LOGGED_BODY * 2) }))!;
    expect(long.length).toBeLessThan(MAX_LOGGED_BODY + 100);
    expect(long).toMatch(/cut at 8192 characters\)$/);
  });
});
