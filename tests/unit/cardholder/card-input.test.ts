// What the fields do with what is typed or autofilled: grouping, scheme, completeness, expiry parsing.
import { describe, expect, it } from "vitest";
import {
  formatExpiry,
  formatPan,
  isExpiryValid,
  isPanComplete,
  isPanValid,
  isSecurityCodeValid,
  maxPanLength,
  panScheme,
  parseExpiry,
  parseMonth,
  parseYear,
} from "@/lib/cardholder/card-input";

describe("card number", () => {
  it("groups in fours, amex as 4-6-5, and stops at the scheme's length", () => {
    expect(formatPan("4111111111111111")).toBe("4111 1111 1111 1111");
    expect(formatPan("411111")).toBe("4111 11");
    expect(formatPan("378282246310005")).toBe("3782 822463 10005");
    expect(formatPan("4111111111111111111")).toBe("4111 1111 1111 1111 111");
    expect(maxPanLength("37")).toBe(15);
    expect(maxPanLength("55")).toBe(16);
    expect(maxPanLength("4")).toBe(19);
  });

  it("knows the scheme from the first digits and checks length and Luhn", () => {
    expect(panScheme("4")).toBe("visa");
    expect(panScheme("2221")).toBe("mastercard");
    expect(panScheme("34")).toBe("amex");
    expect(panScheme("6011")).toBeUndefined();
    expect(isPanValid("4111111111111111")).toBe(true);
    expect(isPanValid("4111111111111112")).toBe(false);
    expect(isPanValid("411111111111111")).toBe(false);
    expect(isPanValid("6011111111111117")).toBe(false);
    expect(isPanComplete("378282246310005")).toBe(true);
    expect(isPanComplete("4111111111111111")).toBe(true);
    expect(isPanComplete("411111111111111")).toBe(false);
  });
});

describe("expiry", () => {
  it("reads months 1 to 12 and two- or four-digit years", () => {
    expect(parseMonth("1")).toBe(1);
    expect(parseMonth("09")).toBe(9);
    expect(parseMonth("13")).toBeUndefined();
    expect(parseMonth("0")).toBeUndefined();
    expect(parseYear("30")).toBe(2030);
    expect(parseYear("2030")).toBe(2030);
    expect(parseYear("203")).toBeUndefined();
  });

  it("reads the single strip's MM / YY however it arrives (typed or autofilled)", () => {
    expect(parseExpiry("12 / 30")).toEqual({ month: 12, year: 2030 });
    expect(parseExpiry("1/2030")).toEqual({ month: 1, year: 2030 });
    expect(parseExpiry("0130")).toEqual({ month: 1, year: 2030 });
    expect(parseExpiry("12 /")).toEqual({ month: 12, year: undefined });
    expect(parseExpiry("ab")).toEqual({});
  });

  it("formats as the cardholder types, with the slash after the month", () => {
    expect(formatExpiry("1", false)).toBe("1");
    expect(formatExpiry("4", false)).toBe("04 / ");
    expect(formatExpiry("12", false)).toBe("12 / ");
    expect(formatExpiry("12", true)).toBe("12");
    expect(formatExpiry("12 / 3", false)).toBe("12 / 3");
    expect(formatExpiry("12/2030", false)).toBe("12 / 30");
    expect(formatExpiry("12 / 2030", false)).toBe("12 / 30");
  });

  it("a card is valid through its expiry month", () => {
    const now = new Date(Date.UTC(2026, 10, 21));
    expect(isExpiryValid(11, 2026, now)).toBe(true);
    expect(isExpiryValid(10, 2026, now)).toBe(false);
    expect(isExpiryValid(undefined, 2030, now)).toBe(false);
  });
});

describe("security code", () => {
  it("has the scheme's length: 4 for amex, 3 otherwise", () => {
    expect(isSecurityCodeValid("1234", "amex")).toBe(true);
    expect(isSecurityCodeValid("123", "amex")).toBe(false);
    expect(isSecurityCodeValid("123", "visa")).toBe(true);
    expect(isSecurityCodeValid("1234", "visa")).toBe(false);
    expect(isSecurityCodeValid("1234", undefined)).toBe(true);
    expect(isSecurityCodeValid("12", undefined)).toBe(false);
  });
});
