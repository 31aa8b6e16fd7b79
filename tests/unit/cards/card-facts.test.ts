import { inspect } from "node:util";
import { describe, expect, it } from "vitest";
import { CardDetails } from "@/lib/cards/card-details";
import { isLuhnValid } from "@/lib/cards/luhn";
import { hasSchemeLength, schemeFromPan, securityCodeLength } from "@/lib/cards/card-scheme";
import { lookupBin } from "@/lib/cards/bin-table";
import { truncateCardNumber } from "@/lib/cards/truncate-card-number";
import { derivePar, isPar } from "@/lib/cards/par";
import { formatExpiryDate, isCardExpired, normalizeExpiryYear } from "@/lib/cards/card-expiry";
import { cardFacts } from "@/lib/cards/card-facts";
import { TEST_CARDS } from "@/lib/sandboxes/acquirers/test-cards";

describe("Luhn", () => {
  it("accepts valid numbers and rejects a changed digit or a swap", () => {
    expect(isLuhnValid("4111111111111111")).toBe(true);
    expect(isLuhnValid("378282246310005")).toBe(true);
    expect(isLuhnValid("4111111111111112")).toBe(false);
    expect(isLuhnValid("4111111111111121")).toBe(false);
    expect(isLuhnValid("41111111111111a1")).toBe(false);
  });

  it("holds for every sandbox test card", () => {
    for (const card of TEST_CARDS) expect(isLuhnValid(card.pan), card.pan).toBe(true);
  });
});

describe("scheme from BIN", () => {
  it.each([
    ["4111111111111111", "visa"],
    ["5555555555554444", "mastercard"],
    ["2223003122003222", "mastercard"],
    ["2720991234567890", "mastercard"],
    ["378282246310005", "amex"],
    ["340000000000009", "amex"],
    ["6011111111111117", undefined],
    ["2721000000000000", undefined],
  ])("%s is %s", (pan, scheme) => {
    expect(schemeFromPan(pan)).toBe(scheme);
  });

  it("knows lengths and security-code lengths", () => {
    expect(securityCodeLength("amex")).toBe(4);
    expect(securityCodeLength("visa")).toBe(3);
    expect(hasSchemeLength("378282246310005", "amex")).toBe(true);
    expect(hasSchemeLength("37828224631000", "amex")).toBe(false);
  });
});

describe("BIN table", () => {
  it("gives funding, segment, issuer and country; the longest prefix wins", () => {
    expect(lookupBin("4111111111111111")).toEqual({
      scheme: "visa",
      funding: "credit",
      segment: "consumer",
      issuer: "Sandbox Bank A/S",
      country: "DK",
    });
    expect(lookupBin("4000000000000002")).toMatchObject({ funding: "debit", segment: "consumer" });
    expect(lookupBin("4000056655665556")).toMatchObject({ funding: "debit", segment: "business" });
    expect(lookupBin("378282246310005")).toMatchObject({ scheme: "amex", funding: "charge" });
  });

  it("falls back to the scheme alone for unknown ranges, and nothing for unknown schemes", () => {
    expect(lookupBin("4242424242424242")).toEqual({ scheme: "visa" });
    expect(lookupBin("6011111111111117")).toBeUndefined();
  });
});

describe("truncated card number", () => {
  it("keeps 6 digits, x's for the rest (at least 4), and the last 4", () => {
    expect(truncateCardNumber("4111111111111111")).toBe("411111xxxxxx1111");
    expect(truncateCardNumber("378282246310005")).toBe("378282xxxxx0005");
    expect(truncateCardNumber("4111111111111111111")).toMatch(/^411111x{9}1111$/);
    expect(truncateCardNumber("4111111111111")).toBe("411111xxxx1111");
  });
});

describe("PAR", () => {
  it("is 29 alphanumerics with the scheme's controller prefix, stable per PAN and key", () => {
    const par = derivePar({ pan: "5555555555554444", scheme: "mastercard", key: "k" });
    expect(isPar(par)).toBe(true);
    expect(par.startsWith("5001")).toBe(true);
    expect(derivePar({ pan: "5555555555554444", scheme: "mastercard", key: "k" })).toBe(par);
    expect(derivePar({ pan: "5555555555554444", scheme: "mastercard", key: "other" })).not.toBe(par);
    expect(derivePar({ pan: "4111111111111111", scheme: "visa", key: "k" })).toMatch(/^V001[A-Z0-9]{25}$/);
    expect(par).not.toContain("5555555555554444".slice(6, 12));
  });
});

describe("expiry", () => {
  const now = new Date("2026-11-21T12:00:00Z");
  it("is valid through the expiry month", () => {
    expect(isCardExpired({ expMonth: 11, expYear: 2026 }, now)).toBe(false);
    expect(isCardExpired({ expMonth: 10, expYear: 2026 }, now)).toBe(true);
    expect(isCardExpired({ expMonth: 1, expYear: 2027 }, now)).toBe(false);
    expect(isCardExpired({ expMonth: 12, expYear: 2025 }, now)).toBe(true);
  });

  it("formats MM/YYYY and reads two-digit years as 20YY", () => {
    expect(formatExpiryDate({ expMonth: 3, expYear: 2030 })).toBe("03/2030");
    expect(normalizeExpiryYear(30)).toBe(2030);
    expect(normalizeExpiryYear(2031)).toBe(2031);
  });
});

describe("CardDetails", () => {
  const card = new CardDetails({ pan: "4111 1111 1111 1111", expMonth: 4, expYear: 2031, securityCode: "737" });

  it("never shows the PAN or security code when printed or serialised", () => {
    for (const printed of [JSON.stringify(card), String(card), inspect(card), `${card}`, JSON.stringify({ nested: { card } })]) {
      expect(printed).not.toContain("4111111111111111");
      expect(printed).not.toContain("737");
    }
    expect(JSON.parse(JSON.stringify(card))).toEqual({ bin: "411111", last4: "1111", expMonth: 4, expYear: 2031 });
  });

  it("reveals the card data only through the explicit calls", () => {
    expect(card.revealPan()).toBe("4111111111111111");
    expect(card.revealSecurityCode()).toBe("737");
    expect(card.withoutSecurityCode().revealSecurityCode()).toBeUndefined();
  });

  it("rejects malformed input without echoing it", () => {
    expect(() => new CardDetails({ pan: "4111x", expMonth: 1, expYear: 2030 })).toThrow(/8 to 19 digits/);
    expect(() => new CardDetails({ pan: "4111111111111111", expMonth: 13, expYear: 2030 })).toThrow(/month/);
    expect(() => new CardDetails({ pan: "4111111111111111", expMonth: 1, expYear: 30 })).toThrow(/four digits/);
    try {
      new CardDetails({ pan: "4111111111111111", expMonth: 1, expYear: 2030, securityCode: "12" });
    } catch (error) {
      expect(String(error)).not.toContain("4111111111111111");
    }
  });
});

describe("card facts", () => {
  it("combines scheme, BIN facts, truncated number, expiry and PAR", () => {
    const facts = cardFacts({ card: new CardDetails({ pan: "5555555555554444", expMonth: 2, expYear: 2029 }), parKey: "key" });
    expect(facts).toMatchObject({
      scheme: "mastercard",
      funding: "credit",
      segment: "consumer",
      issuer: "Sandbox Bank A/S",
      country: "DK",
      bin: "555555",
      last4: "4444",
      tcardnumber: "555555xxxxxx4444",
      expiryDate: "02/2029",
    });
    expect(isPar(facts.par!)).toBe(true);
    expect(cardFacts({ card: new CardDetails({ pan: "5555555555554444", expMonth: 2, expYear: 2029 }) }).par).toBeUndefined();
  });
});
