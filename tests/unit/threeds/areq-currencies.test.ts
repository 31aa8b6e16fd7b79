// The AReq's purchaseCurrency and purchaseExponent (EMV 3DS: the ISO 4217 numeric code and its
// minor unit) for every ISO 4217 currency the merchant API takes (money review 4, N9): a window in
// KWD or BHD must be authenticated, not refused as "3-D Secure does not support" its currency.
import { describe, expect, it } from "vitest";
import { currencyForAReq } from "@/lib/threeds/messages";
import { ISO_4217_CODES, currencyExponent, isCurrencyCode } from "@/lib/validation/currency";

describe("3-D Secure currencies", () => {
  it("knows the numeric code of every currency the merchant API takes, with the same exponent as amounts use", () => {
    expect(ISO_4217_CODES.length).toBeGreaterThan(150);
    for (const alpha of ISO_4217_CODES) {
      expect(isCurrencyCode(alpha), alpha).toBe(true);
      const areq = currencyForAReq(alpha);
      expect(areq, alpha).toBeDefined();
      expect(areq!.code, alpha).toMatch(/^\d{3}$/);
      expect(areq!.exponent, alpha).toBe(currencyExponent(alpha));
    }
    // One numeric code per currency, but for the guilder: XCG replaced ANG under the same 532.
    const numerics = ISO_4217_CODES.filter((alpha) => alpha !== "ANG").map((alpha) => currencyForAReq(alpha)!.code);
    expect(new Set(numerics).size, "one numeric code per currency").toBe(numerics.length);
    expect(currencyForAReq("ANG")).toEqual(currencyForAReq("XCG"));
  });

  it("has the codes ISO 4217 gives (list one, published by SIX)", () => {
    const expected: Record<string, [string, number]> = {
      KWD: ["414", 3],
      BHD: ["048", 3],
      JOD: ["400", 3],
      OMR: ["512", 3],
      TND: ["788", 3],
      CLF: ["990", 4],
      UYW: ["927", 4],
      CLP: ["152", 0],
      JPY: ["392", 0],
      ISK: ["352", 0],
      KRW: ["410", 0],
      XOF: ["952", 0],
      DKK: ["208", 2],
      EUR: ["978", 2],
      USD: ["840", 2],
      CAD: ["124", 2],
      GBP: ["826", 2],
      HUF: ["348", 2],
      AED: ["784", 2],
      ZAR: ["710", 2],
    };
    for (const [alpha, [code, exponent]] of Object.entries(expected)) expect(currencyForAReq(alpha), alpha).toEqual({ code, exponent });
    expect(currencyForAReq("XXX")).toBeUndefined();
    expect(currencyForAReq("kwd")).toEqual({ code: "414", exponent: 3 });
  });
});
