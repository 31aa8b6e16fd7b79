// The Bambora North America transformers against the API's published requests and recorded answers
// (lib/acquirers/bambora/fixtures/*.json: each names its source at an exact commit). A request we
// build must carry what the documented request carries; a documented answer must map to what it means.
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { CardDetails } from "@/lib/cards/card-details";
import {
  BAMBORA_GATEWAY_CODES,
  BAMBORA_NAME_NOT_COLLECTED,
  bamboraErrorResponse,
  bamboraOrderNumber,
  bamboraPaymentResponse,
  bamboraSearchResult,
  fromBamboraError,
  fromBamboraPayment,
  fromBamboraSearchRecord,
  mapBamboraGatewayCode,
  toBamboraAdjustment,
  toBamboraAmount,
  toBamboraCompletion,
  toBamboraOrderSearch,
  toBamboraPayment,
} from "@/lib/acquirers/bambora/transformers";
import type { AuthorizeRequest } from "@/lib/acquirers/contract";

interface Fixture {
  source: string;
  request: { method: string; url: string; headers: Record<string, string>; body: Record<string, unknown> };
  response: { httpStatus: number | null; body: unknown };
}

function fixture(name: string): Fixture {
  return JSON.parse(readFileSync(path.join(__dirname, "../../../lib/acquirers/bambora/fixtures", `${name}.json`), "utf8")) as Fixture;
}

/** Our authorization request for the card and amount a documented request carries. */
function requestLike(body: Record<string, unknown>, overrides: Partial<AuthorizeRequest> = {}): AuthorizeRequest {
  const card = body.card as { name: string; number: string; expiry_month: string; expiry_year: string; cvd?: string };
  return {
    operationId: String(body.order_number ?? "0123456789abcdef0123456789abcdef"),
    paymentId: "payment1",
    amount: BigInt(Math.round(Number(body.amount) * 100)),
    currency: "CAD",
    card: new CardDetails({
      pan: card.number,
      expMonth: Number(card.expiry_month),
      expYear: 2000 + Number(card.expiry_year),
      securityCode: card.cvd,
      holderName: card.name,
    }),
    ...overrides,
  };
}

describe("bambora requests match the documented ones", () => {
  it("a pre-authorization with card data (authorize-approved.json) is exactly the documented body", () => {
    const documented = fixture("authorize-approved");
    expect(documented.request.url).toBe("https://api.na.bambora.com/v1/payments");
    expect(toBamboraPayment(requestLike(documented.request.body))).toEqual(documented.request.body);
  });

  it("a declined card's pre-authorization (authorize-declined.json) is the documented body", () => {
    const documented = fixture("authorize-declined");
    const ours = toBamboraPayment(requestLike(documented.request.body, { operationId: "a".repeat(32) }));
    const { order_number, ...rest } = ours;
    expect(order_number).toBe("a".repeat(30));
    expect(rest).toEqual(documented.request.body);
  });

  it("3-D Secure results of our own server go in card.3d_secure_passthrough (authorize-3ds-passthrough.json)", () => {
    const documented = fixture("authorize-3ds-passthrough");
    const passthrough = (documented.request.body.card as Record<string, Record<string, unknown>>)["3d_secure_passthrough"]!;
    const ours = toBamboraPayment(
      requestLike(documented.request.body, {
        threeDs: {
          eci: "05",
          authenticationValue: String(passthrough.cavv),
          dsTransId: String(passthrough.ds_transaction_id),
          version: "2.2.0",
          transStatus: "Y",
          messageType: "ARes",
        },
      }),
    );
    // The documented request is a purchase (complete: true) and also sends the 3DS1 xid; ours is a
    // pre-authorization of a 3DS2 authentication, which has no xid.
    const { xid: _xid, ...without } = passthrough;
    expect(ours.card["3d_secure_passthrough"]).toEqual(without);
    expect(ours.card.complete).toBe(false);
    expect(ours.customer_ip).toBeUndefined();
  });

  it("card_on_file: first_unscheduled when the card is stored, subsequent_customer_initiated with this account series when paid with it again, else none", () => {
    const documented = fixture("mit-first-installment");
    const first = toBamboraPayment(
      requestLike(documented.request.body, { credentialOnFile: { initiator: "cardholder", storeCredential: true } }),
    );
    expect(first.card_on_file).toEqual({ type: "first_unscheduled" });
    const again = toBamboraPayment(
      requestLike(documented.request.body, {
        credentialOnFile: {
          initiator: "cardholder",
          storeCredential: false,
          usesStoredCredential: true,
          previousCredentialSeriesId: "2411",
        },
      }),
    );
    expect(again.card_on_file).toEqual({ type: "subsequent_customer_initiated", series_id: 2411 });
    // A card stored without a series at this account (e.g. first paid at another acquirer): the
    // series id is required with subsequent_customer_initiated, so the indicator is left to Bambora's default.
    const elsewhere = toBamboraPayment(
      requestLike(documented.request.body, {
        credentialOnFile: { initiator: "cardholder", storeCredential: false, usesStoredCredential: true },
      }),
    );
    expect(elsewhere.card_on_file).toBeUndefined();
    // The documented shape of the object: {type, series_id} with a numeric series id.
    expect(fixture("mit-subsequent-installment").request.body.card_on_file).toEqual({ type: "subsequent_installment", series_id: 2411 });
  });

  it("the cardholder name is required: without one the body says it was not collected", () => {
    const documented = fixture("authorize-approved");
    const request = requestLike(documented.request.body);
    const nameless = { ...request, card: new CardDetails({ pan: "5100000010001004", expMonth: 2, expYear: 2030, securityCode: "123" }) };
    expect(toBamboraPayment(nameless).card.name).toBe(BAMBORA_NAME_NOT_COLLECTED);
  });

  it("completion, return and void bodies carry the documented amounts in dollars", () => {
    expect(toBamboraCompletion(7437n, "CAD")).toEqual({ ...fixture("capture-approved").request.body, payment_method: "card" });
    expect(toBamboraAdjustment(1000n, "USD", "f".repeat(32))).toEqual({
      ...fixture("refund-approved").request.body,
      order_number: "f".repeat(30),
    });
    expect(toBamboraAdjustment(500n, "CAD", "e".repeat(32))).toEqual({
      ...fixture("void-approved").request.body,
      order_number: "e".repeat(30),
    });
  });

  it("amounts use the currency's exponent; an order number is our 32-character id cut to 30", () => {
    expect(toBamboraAmount(22_13n, "CAD")).toBe(22.13);
    expect(toBamboraAmount(1n, "USD")).toBe(0.01);
    expect(toBamboraAmount(100_000_00n, "USD")).toBe(100_000);
    expect(() => toBamboraAmount(1000n, "KWD")).toThrow(/two decimals/);
    expect(bamboraOrderNumber("0123456789abcdef0123456789abcdef")).toBe("0123456789abcdef0123456789abcd");
  });

  it("the report search by order number has the documented shape (report-search.json), with criteria field 5", () => {
    const documented = fixture("report-search");
    const ours = toBamboraOrderSearch("0123456789abcdef0123456789abcd", { start: "2017-01-01T01:01:03", end: "2018-06-05T16:05:00" });
    expect(Object.keys(ours).sort()).toEqual(Object.keys(documented.request.body).sort());
    expect(ours).toMatchObject({ name: "Search", start_date: "2017-01-01T01:01:03", end_date: "2018-06-05T16:05:00", start_row: "1" });
    expect(ours.criteria).toEqual([{ field: "5", operator: "%3D", value: "0123456789abcdef0123456789abcd" }]);
  });
});

describe("bambora answers map to what they mean", () => {
  it.each(["authorize-approved", "purchase-approved", "capture-approved", "refund-approved", "void-approved", "authorize-3ds-passthrough"])(
    "%s: approved, with Bambora's transaction id and approval code",
    (name) => {
      const documented = fixture(name);
      expect(documented.response.httpStatus).toBe(200);
      const body = bamboraPaymentResponse.parse(documented.response.body);
      expect(fromBamboraPayment(body, "05")).toMatchObject({
        status: "approved",
        responsecode: "00",
        processorReference: (documented.response.body as { id: string }).id,
        authorizationcode: (documented.response.body as { auth_code: string }).auth_code,
        eci: "05",
      });
    },
  );

  it("the series id of a first card-on-file payment is kept (mit-first-installment.json)", () => {
    const body = bamboraPaymentResponse.parse(fixture("mit-first-installment").response.body);
    expect(fromBamboraPayment(body)).toMatchObject({ status: "approved", credentialSeriesId: "2411" });
  });

  it("the emulator's decline (authorize-declined.json): declined, 05, code 7 kept", () => {
    const documented = fixture("authorize-declined");
    expect(documented.response.httpStatus).toBe(402);
    expect(fromBamboraError(bamboraErrorResponse.parse(documented.response.body), "05")).toMatchObject({
      status: "declined",
      failure: "declined",
      responsecode: "05",
      acquirerCode: "7",
      message: "DECLINE",
    });
  });

  it("3D Secure Failed (authorize-3ds-failed.json): a decline, not a retry", () => {
    expect(fromBamboraError(bamboraErrorResponse.parse(fixture("authorize-3ds-failed").response.body))).toMatchObject({
      status: "declined",
      acquirerCode: "311",
    });
  });

  it("an invalid transaction id on a void (void-error-invalid-id.json): refused as input, with the field named", () => {
    expect(fromBamboraError(bamboraErrorResponse.parse(fixture("void-error-invalid-id").response.body))).toMatchObject({
      status: "failed",
      failure: "declined",
      responsecode: "30",
      acquirerCode: "314",
      message: expect.stringContaining("adjId: Invalid adjustment id"),
    });
  });

  it("duplicates and lost processor answers are unknown outcomes, never declines", () => {
    for (const code of [16, 203, 788, 53, 55, 56, 190, 560] as const) {
      expect(mapBamboraGatewayCode(code)).toMatchObject({ status: "failed", failure: "indeterminate" });
    }
    for (const code of [211, 310, 935] as const) expect(mapBamboraGatewayCode(code)).toMatchObject({ failure: "retryable" });
    expect(mapBamboraGatewayCode(938)).toMatchObject({ status: "declined", responsecode: "1A" });
    expect(mapBamboraGatewayCode(205)).toMatchObject({ status: "failed", failure: "declined", responsecode: "12" });
    // Every listed code has a class.
    for (const code of BAMBORA_GATEWAY_CODES) expect(mapBamboraGatewayCode(code).status).toBeDefined();
  });

  it("unlisted codes go by category: 1 a bank decline, 2 and 3 refusals, 4 unknown", () => {
    expect(fromBamboraError({ code: 71, category: 1, message: "Declined" })).toMatchObject({ status: "declined", responsecode: "05" });
    expect(fromBamboraError({ code: 9001, category: 2 })).toMatchObject({ status: "failed", failure: "declined" });
    expect(fromBamboraError({ code: 9002, category: 3 })).toMatchObject({ status: "failed", failure: "declined", responsecode: "30" });
    expect(fromBamboraError({ code: 9003, category: 4 })).toMatchObject({ status: "failed", failure: "indeterminate" });
  });

  it("a report record (report-search.json) is the answer to the request it records", () => {
    const result = bamboraSearchResult.parse(fixture("report-search").response.body);
    expect(fromBamboraSearchRecord(result.records[0]!)).toMatchObject({
      status: "approved",
      responsecode: "00",
      processorReference: "10000105",
      authorizationcode: "TEST",
      acquirerCode: "1",
    });
    expect(fromBamboraSearchRecord({ ...result.records[0]!, trn_response: 0, message_id: 7, message_text: "DECLINE" })).toMatchObject({
      status: "declined",
      responsecode: "05",
    });
  });
});
