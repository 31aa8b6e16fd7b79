// The Worldline Direct transformers against Worldline's published requests and recorded answers
// (tests/fixtures/acquirers/bambora-worldline/*.json, each naming its source at a commit): what we
// send has the fields and forms of the SDKs' own requests; every documented answer maps to what it means.
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { CardDetails } from "@/lib/cards/card-details";
import {
  WorldlineInputError,
  findWorldlineOperation,
  fromWorldlineAnswer,
  toWorldlineCancel,
  toWorldlineCapture,
  toWorldlinePayment,
  toWorldlineRefund,
  type WorldlinePaymentInput,
} from "@/lib/acquirers/bambora/worldline/transformers";
import {
  worldlineCancelRequest,
  worldlineCaptureRequest,
  worldlineCreatePaymentRequest,
  worldlineRefundRequest,
} from "@/lib/acquirers/bambora/worldline/schemas";
import { WORLDLINE_HOSTS, worldlinePaths } from "@/lib/acquirers/bambora/worldline/endpoints";

interface Fixture {
  source: string;
  request: { method: string; path: string; body?: Record<string, unknown> } | null;
  response: { httpStatus: number; body: unknown } | null;
}

const fixture = (name: string): Fixture =>
  JSON.parse(readFileSync(path.join(__dirname, "../../../fixtures/acquirers/bambora-worldline", `${name}.json`), "utf8")) as Fixture;

const nextYear = new Date().getUTCFullYear() + 1;
const REFERENCE = "0123456789abcdef0123456789abcdef";

function input(overrides: Partial<WorldlinePaymentInput> = {}): WorldlinePaymentInput {
  return {
    reference: REFERENCE,
    amount: 2980n,
    currency: "DKK",
    card: new CardDetails({ pan: "4330264936344675", expMonth: 12, expYear: nextYear, securityCode: "123", holderName: "Wile E. Coyote" }),
    capture: "later",
    ...overrides,
  };
}

describe("worldline requests", () => {
  it("every fixture names its source", () => {
    for (const name of [
      "create-payment-request",
      "capture-request",
      "refund-request",
      "get-payment-pending-capture",
      "payment-details-captured",
      "cancel-payment",
      "error-parameter-not-found",
    ])
      expect(fixture(name).source, name).toMatch(/@[0-9a-f]{7}:|constructed/);
  });

  it("a cardholder payment carries the card as the SDK's own create request does, the amount in minor units, a pre-authorization", () => {
    const documented = fixture("create-payment-request").request!.body as {
      cardPaymentMethodSpecificInput: { card: Record<string, string>; paymentProductId: number; transactionChannel: string };
      order: { amountOfMoney: { amount: number; currencyCode: string } };
    };
    const ours = toWorldlinePayment(input());
    expect(worldlineCreatePaymentRequest.parse(ours)).toEqual(ours);
    // The same field names and forms as the documented request.
    expect(Object.keys(ours.cardPaymentMethodSpecificInput.card).sort()).toEqual(
      Object.keys(documented.cardPaymentMethodSpecificInput.card).sort(),
    );
    expect(ours.cardPaymentMethodSpecificInput.card.expiryDate).toMatch(/^\d{4}$/);
    expect(ours.cardPaymentMethodSpecificInput.card.expiryDate).toBe(`12${String(nextYear % 100).padStart(2, "0")}`);
    expect(ours.cardPaymentMethodSpecificInput.paymentProductId).toBe(documented.cardPaymentMethodSpecificInput.paymentProductId);
    expect(ours.cardPaymentMethodSpecificInput.transactionChannel).toBe(documented.cardPaymentMethodSpecificInput.transactionChannel);
    expect(ours.order.amountOfMoney).toEqual({ amount: 2980, currencyCode: "DKK" });
    expect(typeof documented.order.amountOfMoney.amount).toBe("number");
    expect(ours.cardPaymentMethodSpecificInput.authorizationMode).toBe("PRE_AUTHORIZATION");
    expect(ours.order.references.merchantReference).toBe(REFERENCE);
    // Without our own 3-D Secure result the platform must not authenticate on its own.
    expect(ours.cardPaymentMethodSpecificInput.threeDSecure).toEqual({ skipAuthentication: true });
  });

  it("instant capture is a SALE; amounts follow the currency's minor units", () => {
    expect(toWorldlinePayment(input({ capture: "now" })).cardPaymentMethodSpecificInput.authorizationMode).toBe("SALE");
    expect(toWorldlinePayment(input({ currency: "JPY", amount: 1234n })).order.amountOfMoney).toEqual({
      amount: 1234,
      currencyCode: "JPY",
    });
    expect(() => toWorldlinePayment(input({ currency: "XXQ" }))).toThrow();
  });

  it("our 3-D Secure result goes in externalCardholderAuthenticationData, the ECI as an integer", () => {
    const ours = toWorldlinePayment(
      input({
        threeDs: {
          eci: "05",
          authenticationValue: "AAABBEg0VhI0VniQEjRWAAAAAAA=",
          dsTransId: "f25084f0-5b16-4c0a-ae5d-b24808a95e4b",
          acsTransId: "4C644F6D-F665-4DA3-B8C2-ECC7FFAACFA8",
          version: "2.2.0",
          flow: "frictionless",
        },
      }),
    );
    expect(ours.cardPaymentMethodSpecificInput.threeDSecure).toEqual({
      externalCardholderAuthenticationData: {
        eci: 5,
        cavv: "AAABBEg0VhI0VniQEjRWAAAAAAA=",
        directoryServerTransactionId: "f25084f0-5b16-4c0a-ae5d-b24808a95e4b",
        acsTransactionId: "4C644F6D-F665-4DA3-B8C2-ECC7FFAACFA8",
        threeDSecureVersion: "2.2.0",
        flow: "frictionless",
      },
    });
    // "cavv ... mandatory for ECI 2 and 5"
    expect(() => toWorldlinePayment(input({ threeDs: { eci: "02", version: "2.2.0" } }))).toThrow(WorldlineInputError);
  });

  it("card-on-file: the first CIT stores, an unscheduled MIT is merchantInitiated + subsequent with the scheme's id (Odoo's MIT fields), a scheduled one is recurring", () => {
    const odoo = (fixture("mit-request-odoo").request!.body as { cardPaymentMethodSpecificInput: Record<string, string> })
      .cardPaymentMethodSpecificInput;
    const first = toWorldlinePayment(input({ storedCredential: { initiator: "cardholder", sequence: "first" } }));
    expect(first.cardPaymentMethodSpecificInput).toMatchObject({
      unscheduledCardOnFileRequestor: "cardholderInitiated",
      unscheduledCardOnFileSequenceIndicator: "first",
    });
    const storedCard = new CardDetails({ pan: "4330264936344675", expMonth: 12, expYear: nextYear });
    const mit = toWorldlinePayment(
      input({
        card: storedCard,
        storedCredential: { initiator: "merchant", type: "unscheduled", initialSchemeTransactionId: "123456789012345" },
      }),
    );
    expect(mit.cardPaymentMethodSpecificInput).toMatchObject({
      unscheduledCardOnFileRequestor: odoo.unscheduledCardOnFileRequestor,
      unscheduledCardOnFileSequenceIndicator: odoo.unscheduledCardOnFileSequenceIndicator,
      initialSchemeTransactionId: "123456789012345",
      threeDSecure: { skipAuthentication: true },
    });
    expect(mit.cardPaymentMethodSpecificInput.card.cvv).toBeUndefined();
    const recurring = toWorldlinePayment(input({ card: storedCard, storedCredential: { initiator: "merchant", type: "recurring" } }));
    expect(recurring.cardPaymentMethodSpecificInput).toMatchObject({
      isRecurring: true,
      recurring: { recurringPaymentSequenceIndicator: "recurring" },
    });
    // "not allowed if isRecurring is true"
    expect(recurring.cardPaymentMethodSpecificInput.unscheduledCardOnFileRequestor).toBeUndefined();
    expect(() => toWorldlinePayment(input({ storedCredential: { initiator: "merchant", type: "unscheduled" } }))).toThrow(/security code/);
  });

  it("capture, refund and cancel carry what the SDK's requests carry, with our reference on the operation", () => {
    const capture = toWorldlineCapture({ reference: REFERENCE, amount: 2980n, currency: "DKK" });
    expect(worldlineCaptureRequest.parse(capture)).toEqual(capture);
    expect(capture.amount).toBe((fixture("capture-request").request!.body as { amount: number }).amount);
    expect(capture).toMatchObject({ isFinal: false, operationReferences: { merchantReference: REFERENCE } });
    const refund = toWorldlineRefund({ reference: REFERENCE, amount: 1n, currency: "EUR" });
    expect(worldlineRefundRequest.parse(refund)).toEqual(refund);
    expect(refund.amountOfMoney).toEqual((fixture("refund-request").request!.body as { amountOfMoney: unknown }).amountOfMoney);
    const cancel = toWorldlineCancel({ reference: REFERENCE });
    expect(worldlineCancelRequest.parse(cancel)).toEqual(cancel);
    expect(() => toWorldlineCapture({ reference: REFERENCE, amount: 0n, currency: "DKK" })).toThrow(WorldlineInputError);
  });

  it("paths put the PSPID in the path and refuse one that is not a PSPID", () => {
    expect(worldlinePaths.createPayment("SandboxDemoShopDK")).toBe("/v2/SandboxDemoShopDK/payments");
    expect(worldlinePaths.capture("P1", "3254564310_0")).toBe("/v2/P1/payments/3254564310_0/capture");
    expect(worldlinePaths.paymentDetails("P1", "3254564310_0")).toBe("/v2/P1/payments/3254564310_0/details");
    expect(() => worldlinePaths.createPayment("../x")).toThrow();
    expect(() => worldlinePaths.refund("P1", "a/b")).toThrow();
    expect(WORLDLINE_HOSTS).toEqual({
      test: "https://payment.preprod.direct.worldline-solutions.com",
      live: "https://payment.direct.worldline-solutions.com",
    });
  });
});

describe("worldline answers", () => {
  it("a payment waiting for capture (Worldline's own stub) is an approved pre-authorization with its approval code", () => {
    const { body } = fixture("get-payment-pending-capture").response!;
    const result = fromWorldlineAnswer("payment", 201, { payment: body });
    expect(result).toMatchObject({
      kind: "approved",
      id: "3254564310_0",
      status: "PENDING_CAPTURE",
      statusCode: 5,
      authorizationCode: "537636403",
      eci: "5",
      final: true,
    });
  });

  it("a payment rejected after a failed authentication is a declined-soft 40001134, read from statusOutput.errors", () => {
    const { body } = fixture("payment-details-rejected-authentication-failure").response!;
    const result = fromWorldlineAnswer("payment", 201, { payment: body });
    expect(result).toMatchObject({
      kind: "declined",
      status: "REJECTED",
      statusCode: 2,
      decline: { class: "declined-soft", code: "40001134" },
    });
  });

  it("a 402 with the rejected payment is a decline classed by its code (51 insufficient funds: declined-soft)", () => {
    const { httpStatus, body } = fixture("create-payment-declined").response!;
    expect(fromWorldlineAnswer("payment", httpStatus, body)).toMatchObject({
      kind: "declined",
      id: "3254564399_0",
      decline: { class: "declined-soft", code: "30511001", iso: "51" },
    });
  });

  it("a missing parameter (400) is a refusal naming the property; nothing happened", () => {
    const { httpStatus, body } = fixture("error-parameter-not-found").response!;
    expect(fromWorldlineAnswer("payment", httpStatus, body)).toMatchObject({
      kind: "refused",
      httpStatus: 400,
      code: "20000000",
      propertyName: "bin",
    });
    const luhn = fixture("error-luhn-check").response!;
    expect(fromWorldlineAnswer("payment", luhn.httpStatus, luhn.body)).toMatchObject({ kind: "refused", code: "21000020" });
  });

  it("a 500 UNKNOWN_SERVER_ERROR leaves the outcome unknown; a 5xx whose errors are all retriable did nothing", () => {
    const { httpStatus, body } = fixture("error-unknown-server-error").response!;
    expect(fromWorldlineAnswer("payment", httpStatus, body)).toMatchObject({ kind: "unknown", httpStatus: 500 });
    expect(fromWorldlineAnswer("capture", 503, { errors: [{ errorCode: "9999", retriable: true }] })).toMatchObject({
      kind: "refused",
      httpStatus: 503,
    });
    expect(fromWorldlineAnswer("payment", 502, "bad gateway")).toMatchObject({ kind: "unknown" });
  });

  it("the same idempotence key still in progress (409, 1409) is pending; another 409 is a refusal", () => {
    expect(fromWorldlineAnswer("payment", 409, { errors: [{ errorCode: "1409", httpStatusCode: 409 }] })).toMatchObject({
      kind: "pending",
    });
    expect(fromWorldlineAnswer("payment", 409, { errors: [{ errorCode: "50001133" }] })).toMatchObject({ kind: "refused" });
  });

  it("an uncertain status (92, 82, 62) is unknown, never a decline", () => {
    expect(
      fromWorldlineAnswer("payment", 201, { payment: { id: "1_0", status: "CAPTURE_REQUESTED", statusOutput: { statusCode: 92 } } }),
    ).toMatchObject({ kind: "unknown" });
    expect(fromWorldlineAnswer("refund", 201, { id: "1_2", status: "REFUND_REQUESTED", statusOutput: { statusCode: 82 } })).toMatchObject({
      kind: "unknown",
    });
  });

  it("captures, refunds and cancellations: requested and done are both approved, the money final only when done", () => {
    expect(
      fromWorldlineAnswer("capture", 200, { id: "3066019730_1", status: "CAPTURE_REQUESTED", statusOutput: { statusCode: 91 } }),
    ).toMatchObject({ kind: "approved", id: "3066019730_1", final: false });
    expect(fromWorldlineAnswer("capture", 200, { id: "3066019730_1", status: "CAPTURED", statusOutput: { statusCode: 9 } })).toMatchObject({
      kind: "approved",
      final: true,
    });
    expect(fromWorldlineAnswer("refund", 201, { id: "1_2", status: "REFUND_REQUESTED", statusOutput: { statusCode: 81 } })).toMatchObject({
      kind: "approved",
      final: false,
    });
    const { body } = fixture("cancel-payment").response!;
    expect(fromWorldlineAnswer("cancel", 200, body)).toMatchObject({ kind: "approved", id: "3254564310_0", status: "CANCELLED" });
  });

  it("a 2xx body this connector cannot read is unknown, not approved", () => {
    expect(fromWorldlineAnswer("payment", 201, { nothing: true })).toMatchObject({ kind: "unknown" });
    expect(fromWorldlineAnswer("payment", 201, "<html>")).toMatchObject({ kind: "unknown" });
  });

  it("REDIRECTED (the platform wants its own 3-D Secure) authorizes nothing", () => {
    expect(
      fromWorldlineAnswer("payment", 201, { payment: { id: "1_0", status: "REDIRECTED", statusOutput: { statusCode: 46 } } }),
    ).toMatchObject({ kind: "refused", code: "REDIRECTED" });
  });

  it("finds an operation by our reference in the payment's details; its absence is an answer", () => {
    const { body } = fixture("payment-details-captured").response!;
    expect(findWorldlineOperation(body, "000000007")).toMatchObject({ found: { id: "3254564310_0", status: "CAPTURED" } });
    expect(findWorldlineOperation(body, "never-sent")).toEqual({ found: undefined });
    expect(findWorldlineOperation("nonsense", "x")).toEqual({ unreadable: true });
  });
});
