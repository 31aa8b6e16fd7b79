// The pure request/response transformers of the Finaro and Clearhaus connectors (Bambora's:
// bambora-fixtures.test.ts, against its recorded answers).
import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { CardDetails } from "@/lib/cards/card-details";
import { finaroSignature, sanitizeFinaroValue } from "@/lib/acquirers/finaro/signature";
import {
  fromFinaroResponse,
  parseFinaroBody,
  toFinaroAuthorize,
  toFinaroCapture,
  toFinaroPayout,
  toFinaroRefund,
} from "@/lib/acquirers/finaro/transformers";
import {
  CLEARHAUS_STATUS_CODES,
  fromClearhausTransaction,
  mapClearhausStatus,
  toClearhausAuthorize,
  toClearhausCredit,
} from "@/lib/acquirers/clearhaus/transformers";
import type { AuthorizeRequest } from "@/lib/acquirers/contract";
import { RequestNotFormedError } from "@/lib/acquirers/plumbing/request-not-formed";

const card = new CardDetails({ pan: "4111111111111111", expMonth: 3, expYear: 2031, securityCode: "123", holderName: "Jane Doe" });
const base: AuthorizeRequest = { operationId: "op0123456789abcdef0123456789abcd", paymentId: "pay1", amount: 1050n, currency: "DKK", card };
const threeDs = {
  eci: "05",
  authenticationValue: "mK225wGt2bLnnLB0UlRky0oHLnU=",
  dsTransId: "1cf815e5-cc85-436f-8e13-9f5e5aea731f",
  version: "2.2.0",
  transStatus: "Y" as const,
  messageType: "ARes" as const,
};

describe("finaro", () => {
  it("signs with SHA-256 over values sorted by key, sanitised, plus the key", () => {
    const fields = { b: "x(y)", a: " 1 ", K: "ignored" };
    expect(sanitizeFinaroValue(`a<b>"c'\\`)).toBe("a b  c");
    expect(finaroSignature(fields, "secret")).toBe(
      createHash("sha256")
        .update("1x y" + "secret")
        .digest("hex"),
    );
  });

  it("maps an authorization with card, customer data, COF flag and external 3-D Secure", () => {
    const fields = toFinaroAuthorize(
      { ...base, threeDs, credentialOnFile: { initiator: "cardholder", storeCredential: true }, customerIp: "10.0.0.1" },
      "M1",
    );
    expect(fields).toMatchObject({
      M: "M1",
      O: "2",
      a1: base.operationId,
      a4: "1050",
      a5: "DKK",
      h9: "pay1",
      b1: "4111111111111111",
      b2: "1",
      b3: "03",
      b4: "31",
      b5: "123",
      c1: "Jane Doe",
      c3: "unspecified@example.com",
      // A cardholder payment that stores the card is a CIT (9), not "first recurring" (1).
      a9: "9",
      d1: "10.0.0.1",
      i8: "05:mK225wGt2bLnnLB0UlRky0oHLnU=:none",
      "3ds_version": "2.2.0",
      "3ds_dstrxid": threeDs.dsTransId,
    });
  });

  it("sends a merchant-initiated authorization without security code or 3-D Secure, with g6", () => {
    const fields = toFinaroAuthorize(
      { ...base, threeDs, credentialOnFile: { initiator: "merchant", paymentType: "scheduled", previousSchemeTransactionId: "123" } },
      "M1",
    );
    expect(fields).toMatchObject({ a9: "2", g6: "123" });
    expect(fields.b5).toBeUndefined();
    expect(fields.i8).toBeUndefined();
    expect(toFinaroAuthorize({ ...base, credentialOnFile: { initiator: "merchant", paymentType: "unscheduled" } }, "M1").a9).toBe("8");
    expect(toFinaroAuthorize(base, "M1").a9).toBe("9");
  });

  it("names the referenced operation by g2/g3/g4 on capture, refund and void; pays out without security code", () => {
    expect(
      toFinaroCapture(
        {
          operationId: "o",
          authorizationReference: "Z1ref",
          authorizationCode: "123456",
          authorizationOperationId: "authop",
          amount: 500n,
          currency: "DKK",
        },
        "M1",
      ),
    ).toMatchObject({ O: "3", g2: "Z1ref", g3: "123456", g4: "authop", a4: "500", d1: "127.0.0.1" });
    expect(
      toFinaroRefund(
        {
          operationId: "o",
          authorizationReference: "auth",
          capture: { operationId: "capop", processorReference: "cap", authorizationCode: "654321" },
          amount: 5n,
          currency: "DKK",
        },
        "M1",
      ),
    ).toMatchObject({ O: "5", g2: "cap", g3: "654321", g4: "capop" });
    const payout = toFinaroPayout({ operationId: "o", paymentId: "p", card, amount: 5n, currency: "DKK" }, "M1");
    expect(payout.O).toBe("35");
    expect(payout.b5).toBeUndefined();
  });

  it("maps Z2/Z6 answers: approval, issuer decline, unknown outcomes, partial approval, gateway error", () => {
    const approved = fromFinaroResponse(
      parseFinaroBody("z1=abc&z2=0&z3=ok&z4=654321&z6=00&z50=999&par=V0011234567890123456789012345")!,
      "05",
    );
    expect(approved).toMatchObject({
      status: "approved",
      responsecode: "00",
      authorizationcode: "654321",
      processorReference: "abc",
      eci: "05",
      scheme: { schemeTransactionId: "999" },
    });
    expect(fromFinaroResponse(parseFinaroBody("Z1=abc&Z2=1&Z6=51")!)).toMatchObject({
      status: "declined",
      failure: "declined",
      responsecode: "51",
    });
    expect(fromFinaroResponse(parseFinaroBody("z1=abc&z2=04")!)).toMatchObject({ status: "failed", failure: "indeterminate" });
    expect(fromFinaroResponse(parseFinaroBody("z1=abc&z2=-7")!)).toMatchObject({ status: "failed", failure: "indeterminate" });
    expect(fromFinaroResponse(parseFinaroBody("z1=abc&z2=10&z4=111111")!)).toMatchObject({ status: "declined", responsecode: "10" });
    expect(fromFinaroResponse(parseFinaroBody("z1=abc&z2=9")!)).toMatchObject({ status: "declined", responsecode: "14" });
    expect(fromFinaroResponse(parseFinaroBody("Z1=abc&Z2=-9&Z3=Parameter+i8+is+invalid")!)).toMatchObject({
      status: "failed",
      failure: "declined",
      responsecode: "30",
    });
    expect(parseFinaroBody("<html>oops</html>")).toBeUndefined();
  });
});

describe("clearhaus", () => {
  it("maps an authorization to bracketed form fields with complete raw 3-D Secure data and a new series", () => {
    const fields = toClearhausAuthorize({
      ...base,
      threeDs,
      credentialOnFile: { initiator: "cardholder", storeCredential: true },
      textOnStatement: "Shop",
    });
    expect(fields).toMatchObject({
      amount: "1050",
      currency: "DKK",
      reference: base.operationId.slice(0, 30),
      "card[pan]": "4111111111111111",
      "card[expire_month]": "03",
      "card[expire_year]": "2031",
      "card[csc]": "123",
      "card[3dsecure][v2][raw][eci]": "05",
      "card[3dsecure][v2][raw][av]": threeDs.authenticationValue,
      "card[3dsecure][v2][raw][trans_status]": "Y",
      "card[3dsecure][v2][raw][message_version]": "2.2.0",
      "card[3dsecure][v2][raw][message_type]": "ARes",
      "card[3dsecure][v2][raw][ds_trans_id]": threeDs.dsTransId,
      "series[type]": "unscheduled",
      text_on_statement: "Shop",
    });
    expect(fields.credential_on_file).toBeUndefined();
  });

  it("marks a cardholder payment with a stored card as using the stored credential", () => {
    expect(
      toClearhausAuthorize(
        { ...base, credentialOnFile: { initiator: "cardholder", storeCredential: false, usesStoredCredential: true } },
        { signed: true },
      ).credential_on_file,
    ).toBe("use");
    expect(toClearhausAuthorize(base).credential_on_file).toBeUndefined();
  });

  it("continues a series with series[previous][id] only, without CSC or 3-D Secure; refuses one it cannot continue", () => {
    const subsequent = toClearhausAuthorize({
      ...base,
      threeDs,
      credentialOnFile: { initiator: "merchant", paymentType: "unscheduled", previousProcessorReference: "prev-id" },
    });
    expect(subsequent).toMatchObject({ "series[previous][id]": "prev-id" });
    expect(subsequent.initiator).toBeUndefined();
    expect(subsequent["card[csc]"]).toBeUndefined();
    expect(subsequent["card[3dsecure][v2][raw][eci]"]).toBeUndefined();
    expect(() => toClearhausAuthorize({ ...base, credentialOnFile: { initiator: "merchant", paymentType: "scheduled" } })).toThrow(
      RequestNotFormedError,
    );
    expect(toClearhausCredit({ operationId: "o", paymentId: "p", card, amount: 1n, currency: "DKK" })["card[csc]"]).toBeUndefined();
  });

  it("maps every documented status code; only 20000 approves; a server problem (50000) leaves the outcome unknown", () => {
    for (const code of CLEARHAUS_STATUS_CODES) {
      const mapped = mapClearhausStatus(code);
      expect(mapped.status === "approved", String(code)).toBe(code === 20000);
      expect(mapped.responsecode).toMatch(/^[0-9A-Z]{2,3}$/);
    }
    expect(mapClearhausStatus(40413)).toMatchObject({ status: "declined", responsecode: "51" });
    expect(mapClearhausStatus(40135)).toMatchObject({ status: "declined", responsecode: "54" });
    expect(mapClearhausStatus(40416)).toMatchObject({ status: "declined", responsecode: "1A" });
    expect(mapClearhausStatus(50000)).toMatchObject({ status: "failed", failure: "indeterminate" });
    expect(fromClearhausTransaction({ id: "x", status: { code: 41999 } })).toMatchObject({
      status: "failed",
      responsecode: "96",
      acquirerCode: "41999",
    });
  });
});
