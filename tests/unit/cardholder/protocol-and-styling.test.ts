// The boundaries the browser code relies on: message schemas, origin bindings, styling values.
import { describe, expect, it } from "vitest";
import { PROTOCOL_TAG, frameToPageSchema, pageToFrameSchema } from "@/lib/cardholder/protocol";
import { hostedStylingSchema, parseStoredStyling } from "@/lib/validation/hosted-styling";
import { contentSecurityPolicy } from "@/lib/cardholder/frame-page";
import { normalizeOrigin } from "@/lib/cardholder/origin-binding";
import { checkCardParts } from "@/lib/cardholder/pay-session";

const envelope = { tag: PROTOCOL_TAG, sessionid: "abc123", channel: "0123456789abcdef0123" };

describe("messages", () => {
  it("accepts the protocol's messages and nothing that lacks the envelope", () => {
    expect(pageToFrameSchema.safeParse({ ...envelope, type: "pay" }).success).toBe(true);
    expect(pageToFrameSchema.safeParse({ type: "pay" }).success).toBe(false);
    expect(pageToFrameSchema.safeParse({ ...envelope, tag: "other", type: "pay" }).success).toBe(false);
    expect(pageToFrameSchema.safeParse({ ...envelope, channel: "short", type: "pay" }).success).toBe(false);
    expect(
      frameToPageSchema.safeParse({ ...envelope, type: "payment-failed", paymentid: null, errorcode: "PAN_MISSING", errortext: "x" })
        .success,
    ).toBe(true);
    expect(
      frameToPageSchema.safeParse({ ...envelope, type: "payment-failed", paymentid: null, errorcode: "SOMETHING", errortext: "x" }).success,
    ).toBe(false);
  });

  it("a field's state carries booleans and the brand only: a value cannot ride along", () => {
    const parsed = frameToPageSchema.parse({
      ...envelope,
      type: "state",
      field: "pan",
      state: { empty: false, focused: true, valid: true, invalid: false, brand: "visa", value: "4111111111111111" },
    });
    expect(JSON.stringify(parsed)).not.toContain("4111");
  });
});

describe("origins", () => {
  it("normalizes to scheme://host[:port] and refuses other schemes", () => {
    expect(normalizeOrigin("https://shop.example/checkout?x=1")).toBe("https://shop.example");
    expect(normalizeOrigin("http://127.0.0.1:3000/")).toBe("http://127.0.0.1:3000");
    expect(normalizeOrigin("javascript:alert(1)")).toBeUndefined();
    expect(normalizeOrigin("null")).toBeUndefined();
    expect(normalizeOrigin(undefined)).toBeUndefined();
  });

  it("the frame CSP allows only nonce scripts, our own fetches and the bound ancestor", () => {
    const policy = contentSecurityPolicy({ nonce: "n0nce", frameAncestors: ["https://shop.example"] });
    expect(policy).toContain("default-src 'none'");
    expect(policy).toContain("script-src 'nonce-n0nce'");
    expect(policy).toContain("frame-ancestors https://shop.example");
    expect(policy).toContain("form-action 'none'");
    expect(policy).not.toContain("unsafe");
  });
});

describe("hosted styling", () => {
  it("accepts plain CSS values", () => {
    const styling = hostedStylingSchema.parse({
      fontFamily: "'Helvetica Neue', Arial, sans-serif",
      fontSize: "16px",
      color: "#333",
      errorColor: "rgb(220, 38, 38)",
      placeholderColor: "gray",
      height: "2.5rem",
      placeholders: { pan: "Card number", securitycode: "CVV" },
      fonts: [{ family: "Inter", src: "https://cdn.example/inter.woff2", weight: 500 }],
    });
    expect(styling.fonts?.[0]).toEqual({ family: "Inter", src: "https://cdn.example/inter.woff2", weight: 500, style: "normal" });
  });

  it.each([
    { color: "red; background: url(https://evil.example)" },
    { color: "red}</style><script>" },
    { fontSize: "16px;position:fixed" },
    { fontFamily: "Arial; } body { display:none" },
    { fonts: [{ family: "X", src: "http://insecure.example/x.woff2" }] },
    { fonts: [{ family: "X", src: "https://cdn.example/x.woff2?a=') ;" }] },
    { placeholders: { pan: "<b>" } },
    { unknownProperty: "1" },
  ])("refuses %j", (value) => {
    expect(hostedStylingSchema.safeParse(value).success).toBe(false);
  });

  it("stored styling that fails the schema is read as no styling", () => {
    expect(parseStoredStyling({ color: "red;}" })).toEqual({});
    expect(parseStoredStyling(null)).toEqual({});
  });
});

describe("card parts from the fields", () => {
  const year = String(new Date().getUTCFullYear() + 1);
  it("names the first missing part with the spec's codes, then what is wrong", () => {
    expect(checkCardParts({})).toEqual({ error: "PAN_MISSING" });
    expect(checkCardParts({ pan: "4111111111111111" })).toEqual({ error: "EXPMONTH_MISSING" });
    expect(checkCardParts({ pan: "4111111111111111", expmonth: "01" })).toEqual({ error: "EXPYEAR_MISSING" });
    expect(checkCardParts({ pan: "4111111111111111", expmonth: "01", expyear: year })).toEqual({ error: "CVC_MISSING" });
    expect(checkCardParts({ pan: "4111111111111112", expmonth: "01", expyear: year, securitycode: "123" })).toEqual({
      error: "PAN_INVALID",
    });
    expect(checkCardParts({ pan: "378282246310005", expmonth: "01", expyear: year, securitycode: "123" })).toEqual({
      error: "CVC_INVALID",
    });
    const ok = checkCardParts({ pan: "4111 1111 1111 1111", expmonth: "1", expyear: year.slice(2), securitycode: "123" });
    expect("card" in ok && String(ok.card)).toBe(`CardDetails(411111xxxxxx1111, 01/${year})`);
  });
});
