// A bambora account settles CAD or USD (Bambora North America): a payment in either can be
// authenticated with 3-D Secure (the AReq's ISO 4217 numeric currency and exponent) before it is
// authorized there. Before issue 26 the AReq table had no CAD, so every CAD payment under FORCE_3DS
// failed authentication (e2e tests/e2e/cardholder/bambora.spec.ts).
import { describe, expect, it } from "vitest";
import { BAMBORA_CURRENCIES } from "@/lib/acquirers/bambora/transformers";
import { currencyForAReq } from "@/lib/threeds/messages";

describe("the currencies of bambora accounts in the AReq", () => {
  it("have their ISO 4217 numeric codes and two decimals", () => {
    expect(BAMBORA_CURRENCIES.map((currency) => [currency, currencyForAReq(currency)])).toEqual([
      ["CAD", { code: "124", exponent: 2 }],
      ["USD", { code: "840", exponent: 2 }],
    ]);
  });
});
