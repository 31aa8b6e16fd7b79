import { describe, expect, it } from "vitest";
import { ApiError } from "@/lib/errors";
import { amountSchema, currencySchema, emailSchema, labelSchema } from "@/lib/validation/common";
import { initSessionRequestSchema } from "@/lib/validation/init-session";
import { mitRequestSchema } from "@/lib/validation/mit";
import { parseInput } from "@/lib/validation/parse-input";
import { currencyExponent } from "@/lib/validation/currency";

function refusal(schema: Parameters<typeof parseInput>[0], input: unknown): string {
  try {
    parseInput(schema, input);
  } catch (error) {
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).code).toBe("INVALID_PARAMETER");
    return (error as ApiError).message;
  }
  throw new Error("expected a refusal");
}

describe("amount", () => {
  it("accepts integers and digit strings of up to 12 digits as BigInt minor units", () => {
    expect(amountSchema.parse(250)).toBe(250n);
    expect(amountSchema.parse("250")).toBe(250n);
    expect(amountSchema.parse("999999999999")).toBe(999_999_999_999n);
    expect(amountSchema.parse(0)).toBe(0n);
  });

  it("refuses decimal commas and points, letters, signs and longer numbers", () => {
    for (const value of ["2,50", "2.50", 2.5, "25a", "-1", -1, "1e3", "1234567890123", 1e13, true, null]) {
      expect(amountSchema.safeParse(value).success, String(value)).toBe(false);
    }
  });
});

describe("formats", () => {
  it("currency: ISO 4217 alpha-3, case-insensitive, with exponents", () => {
    expect(currencySchema.parse("dkk")).toBe("DKK");
    expect(currencySchema.safeParse("XXX1").success).toBe(false);
    expect(currencySchema.safeParse("ABC").success).toBe(false);
    expect(currencyExponent("JPY")).toBe(0);
    expect(currencyExponent("KWD")).toBe(3);
    expect(currencyExponent("DKK")).toBe(2);
  });

  it("reference and textonstatement: 0 to 32 of a-z A-Z 0-9 hyphen space", () => {
    expect(labelSchema.safeParse("").success).toBe(true);
    expect(labelSchema.safeParse("Order 42-b").success).toBe(true);
    expect(labelSchema.safeParse("a".repeat(32)).success).toBe(true);
    expect(labelSchema.safeParse("a".repeat(33)).success).toBe(false);
    expect(labelSchema.safeParse("ordre_1").success).toBe(false);
    expect(labelSchema.safeParse("æøå").success).toBe(false);
  });

  it("email: the pattern of spec 4.7", () => {
    expect(emailSchema.safeParse("a.b+c@shop.example").success).toBe(true);
    expect(emailSchema.safeParse("a@b").success).toBe(false);
    expect(emailSchema.safeParse("a b@shop.dk").success).toBe(false);
  });
});

describe("errordescription", () => {
  const base = { merchantid: "1", amount: 1, currency: "DKK" };

  it("names the parameter and the reason", () => {
    expect(refusal(initSessionRequestSchema, { ...base, amount: "2,50" })).toMatch(/^amount: must be 1 to 12 digits/);
    expect(refusal(initSessionRequestSchema, { ...base, timeout: 1500 })).toBe("timeout: must be at most 1200 seconds");
    expect(refusal(initSessionRequestSchema, { ...base, processor: ["finaro", "acme"] })).toBe(
      "processor.1: must be one of finaro, clearhaus, bambora",
    );
    expect(refusal(initSessionRequestSchema, { ...base, extra: 1 })).toBe("extra: unknown parameter");
    // N12: an unknown parameter is named first, with the one it was probably meant to be.
    expect(refusal(initSessionRequestSchema, { merchantid: "1", amout: 100, currency: "DKK" })).toBe("amout: unknown parameter (did you mean amount?)");
    expect(refusal(initSessionRequestSchema, { ...base, Currency: "DKK", curency: "x" })).toBe("Currency: unknown parameter (did you mean currency?); also unknown: curency");
    expect(refusal(initSessionRequestSchema, { ...base, notificationUrl: "https://x.example" })).toBe("notificationUrl: unknown parameter (did you mean notificationurl?)");
    expect(refusal(initSessionRequestSchema, { ...base, customer: { email: "a@b.example", surname: "Berg" } })).toBe("customer.surname: unknown parameter (did you mean surename?)");
    expect(refusal(mitRequestSchema, { ...base, paymentid: "p", paymenttype: "scheduled", shipping: 1 })).toBe("shipping: unknown parameter");
    expect(refusal(initSessionRequestSchema, { amount: 1, currency: "DKK" })).toBe("merchantid: is required");
    expect(refusal(initSessionRequestSchema, [])).toMatch(/^body: /);
    expect(refusal(mitRequestSchema, { ...base, paymenttype: "weekly" })).toBe(
      "paymenttype: must be one of incremental, scheduled, unscheduled",
    );
    expect(refusal(mitRequestSchema, { ...base, paymenttype: "scheduled", customer: { email: "x" } })).toBe(
      "customer.email: must be an email address",
    );
  });

  it("applies the defaults of spec 4.1", () => {
    const parsed = parseInput(initSessionRequestSchema, base);
    expect(parsed).toMatchObject({ timeout: 900, set3ds: "FORCE_3DS", rule: 1, instantcapture: 0, processor: [] });
  });
});
