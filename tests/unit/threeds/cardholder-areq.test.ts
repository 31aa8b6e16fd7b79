// The cardholder part of the AReq (lib/threeds/cardholder-areq.ts) in the reference's formats:
// cardholderName ASCII 2-45 (auth.rst), email an address of at most 254 (areq_220). What does not fit is
// left out, never sent malformed.
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { cardholderAReqFields, cardholderNameForAReq, emailForAReq } from "@/lib/threeds/cardholder-areq";

describe("cardholderNameForAReq", () => {
  it("joins first name and surname", () => {
    expect(cardholderNameForAReq("Jens", "Hansen")).toBe("Jens Hansen");
    expect(cardholderNameForAReq(undefined, "Hansen")).toBe("Hansen");
    expect(cardholderNameForAReq("  Jens  ", null)).toBe("Jens");
  });

  it("takes accents off and spells out letters without a decomposition, since 2.1.0 and 2.2.0 take only ASCII", () => {
    expect(cardholderNameForAReq("Søren", "Ærø Ågård")).toBe("Soren AEro Agard");
    expect(cardholderNameForAReq("José", "Müller-Straße")).toBe("Jose Muller-Strasse");
  });

  it("leaves out a name in another script, a name shorter than 2 and nothing at all", () => {
    expect(cardholderNameForAReq("Иван", "Петров")).toBeUndefined();
    expect(cardholderNameForAReq("J", undefined)).toBeUndefined();
    expect(cardholderNameForAReq(undefined, undefined)).toBeUndefined();
    expect(cardholderNameForAReq("", "  ")).toBeUndefined();
  });

  it("cuts a longer name at 45 characters", () => {
    const name = cardholderNameForAReq("Maximilian Alexander", "Wolfeschlegelsteinhausenbergerdorff");
    expect(name).toBe("Maximilian Alexander Wolfeschlegelsteinhausen");
    expect(name!.length).toBeLessThanOrEqual(45);
  });
});

describe("emailForAReq", () => {
  it("keeps an address and leaves out what is not one or is too long", () => {
    expect(emailForAReq(" jens@example.com ")).toBe("jens@example.com");
    expect(emailForAReq("jens.hansen+shop@mail.example.dk")).toBe("jens.hansen+shop@mail.example.dk");
    expect(emailForAReq("jens@localhost")).toBeUndefined();
    expect(emailForAReq("not an address")).toBeUndefined();
    expect(emailForAReq(`${"a".repeat(250)}@example.com`)).toBeUndefined();
    expect(emailForAReq(null)).toBeUndefined();
  });

  it("keeps only addresses a strict validator (the strict sandbox's zod email) takes too: no leading, trailing or doubled dots, no odd characters", () => {
    const candidates = [
      "jens@example.com",
      "a.b-c_d+e@sub.example.co.uk",
      ".jens@example.com",
      "jens.@example.com",
      "je..ns@example.com",
      "a!b@example.com",
      "per%cent@example.com",
      "jens@example.c1",
      "jens@-example.com",
      "jens@example",
      "jens@ex_ample.com",
      '"quoted"@example.com',
    ];
    for (const address of candidates) if (emailForAReq(address)) expect(z.email().safeParse(address).success, address).toBe(true);
    expect(emailForAReq("a.b-c_d+e@sub.example.co.uk")).toBeDefined();
    expect(emailForAReq("a!b@example.com")).toBeUndefined();
    expect(emailForAReq("je..ns@example.com")).toBeUndefined();
  });
});

describe("cardholderAReqFields", () => {
  it("has only the fields the payment has, in their format", () => {
    expect(cardholderAReqFields({ firstName: "Jens", surname: "Hansen", email: "jens@example.com" })).toEqual({
      cardholderName: "Jens Hansen",
      email: "jens@example.com",
    });
    expect(cardholderAReqFields({ firstName: "Иван", email: "broken" })).toEqual({});
    expect(cardholderAReqFields({})).toEqual({});
  });
});
