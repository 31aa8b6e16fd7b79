// The pure request/response transformers of the three connectors.
import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { CardDetails } from "@/lib/cards/card-details";
import { finaroSignature, sanitizeFinaroValue } from "@/lib/processors/finaro/signature";
import {
  fromFinaroResponse,
  parseFinaroBody,
  toFinaroAuthorize,
  toFinaroCapture,
  toFinaroPayout,
  toFinaroRefund,
} from "@/lib/processors/finaro/transformers";
import {
  CLEARHAUS_STATUS_CODES,
  fromClearhausTransaction,
  mapClearhausStatus,
  toClearhausAuthorize,
  toClearhausCredit,
} from "@/lib/processors/clearhaus/transformers";
import {
  BAMBORA_GATEWAY_ERRORS,
  fromBamboraResponse,
  mapBamboraGatewayError,
  toBamboraAuthorize,
} from "@/lib/processors/bambora/transformers";
import type { AuthorizeRequest } from "@/lib/processors/types";

const card = new CardDetails({ pan: "4111111111111111", expMonth: 3, expYear: 2031, securityCode: "123", holderName: "Jane Doe" });
const base: AuthorizeRequest = { operationId: "op0123456789abcdef0123456789abcd", paymentId: "pay1", amount: 1050n, currency: "DKK", card };
const threeDs = { eci: "05", authenticationValue: "AAABBBCCC=", dsTransId: "ds-1", version: "2.2.0", transStatus: "Y" as const };

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

  it("maps an authorization with card, COF flag and external 3-D Secure", () => {
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
      a9: "1",
      d1: "10.0.0.1",
      i8: "05:AAABBBCCC=:none",
      "3ds_version": "2.2.0",
      "3ds_dstrxid": "ds-1",
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

  it("refers follow-ups to the previous transaction and sends payouts without security code", () => {
    expect(
      toFinaroCapture(
        { operationId: "o", authorizationReference: "Z1ref", authorizationCode: "123456", amount: 500n, currency: "DKK" },
        "M1",
      ),
    ).toMatchObject({ O: "3", g2: "Z1ref", g3: "123456", a4: "500" });
    expect(
      toFinaroRefund({ operationId: "o", authorizationReference: "auth", captureReference: "cap", amount: 5n, currency: "DKK" }, "M1"),
    ).toMatchObject({ O: "5", g2: "cap" });
    const payout = toFinaroPayout({ operationId: "o", paymentId: "p", card, amount: 5n, currency: "DKK" }, "M1");
    expect(payout.O).toBe("35");
    expect(payout.b5).toBeUndefined();
  });

  it("maps Z2/Z6 answers: approval, issuer decline, gateway error", () => {
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
    expect(fromFinaroResponse(parseFinaroBody("Z1=abc&Z2=-9&Z3=Parameter+i8+is+invalid")!)).toMatchObject({
      status: "failed",
      failure: "declined",
      responsecode: "96",
    });
    expect(parseFinaroBody("<html>oops</html>")).toBeUndefined();
  });
});

describe("clearhaus", () => {
  it("maps an authorization to bracketed form fields", () => {
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
      "card[3dsecure][v2][raw][av]": "AAABBBCCC=",
      credential_on_file: "store",
      text_on_statement: "Shop",
    });
  });

  it("marks a cardholder payment with a stored card as using the stored credential", () => {
    expect(
      toClearhausAuthorize({ ...base, credentialOnFile: { initiator: "cardholder", storeCredential: false, usesStoredCredential: true } })
        .credential_on_file,
    ).toBe("use");
    expect(toClearhausAuthorize(base).credential_on_file).toBeUndefined();
    expect(
      toBamboraAuthorize({ ...base, credentialOnFile: { initiator: "cardholder", storeCredential: false, usesStoredCredential: true } }),
    ).toMatchObject({
      initiator: "cardholder",
      subscription: { action: "use" },
    });
  });

  it("marks merchant-initiated series without CSC or 3-D Secure", () => {
    const subsequent = toClearhausAuthorize({
      ...base,
      threeDs,
      credentialOnFile: { initiator: "merchant", paymentType: "unscheduled", previousProcessorReference: "prev-id" },
    });
    expect(subsequent).toMatchObject({ initiator: "merchant", credential_on_file: "use", "series[previous][id]": "prev-id" });
    expect(subsequent["card[csc]"]).toBeUndefined();
    expect(subsequent["card[3dsecure][v2][raw][eci]"]).toBeUndefined();
    expect(toClearhausAuthorize({ ...base, credentialOnFile: { initiator: "merchant", paymentType: "scheduled" } })["series[type]"]).toBe(
      "recurring",
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

describe("bambora", () => {
  it("maps an authorization to JSON with the 3-D Secure block and subscription use for MIT", () => {
    expect(toBamboraAuthorize({ ...base, threeDs })).toMatchObject({
      order: { id: base.operationId, amount: 1050, currency: "DKK" },
      card: { number: "4111111111111111", expmonth: 3, expyear: 31, cvc: "123" },
      initiator: "cardholder",
      threedsecure: { eci: "05", cavv: "AAABBBCCC=", dstransactionid: "ds-1", version: "2.2.0" },
    });
    const mit = toBamboraAuthorize({
      ...base,
      threeDs,
      credentialOnFile: { initiator: "merchant", paymentType: "incremental", previousSchemeTransactionId: "55" },
    });
    expect(mit).toMatchObject({ initiator: "merchant", subscription: { action: "use", type: "incremental", schemereference: "55" } });
    expect("threedsecure" in mit).toBe(false);
    expect("cvc" in mit.card).toBe(false);
  });

  it("decides by meta.result and the action source", () => {
    expect(fromBamboraResponse({ meta: { result: true }, transaction: { id: "t", authorizationcode: "111222" } }, "05")).toMatchObject({
      status: "approved",
      responsecode: "00",
      authorizationcode: "111222",
      eci: "05",
    });
    expect(
      fromBamboraResponse({
        meta: { result: false, action: { code: "54", source: "Issuer", type: "IssuerDecline" } },
        transaction: { id: "t" },
      }),
    ).toMatchObject({ status: "declined", responsecode: "54" });
    expect(fromBamboraResponse({ meta: { result: false, action: { code: "108", source: "ePay", type: "InvalidAmount" } } })).toMatchObject({
      status: "failed",
      responsecode: "13",
    });
    expect(fromBamboraResponse({ meta: { result: false, action: { code: "999", source: "ePay", type: "Mystery" } } })).toMatchObject({
      status: "failed",
      responsecode: "96",
    });
    for (const type of BAMBORA_GATEWAY_ERRORS) expect(mapBamboraGatewayError(type).status).toBe("failed");
  });
});
