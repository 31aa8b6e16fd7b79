// Clearhaus' own examples and ActiveMerchant's recorded answers (lib/acquirers/clearhaus/fixtures,
// each naming its source) through our transformers: we produce what the docs document, and we read
// what the gateway sends as what it is (approved, declined, refused).
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { CardDetails } from "@/lib/cards/card-details";
import { clearhausSignatureHeader } from "@/lib/acquirers/clearhaus/client";
import { fromClearhausAnswer, toClearhausAmount, toClearhausAuthorize, toClearhausCredit } from "@/lib/acquirers/clearhaus/transformers";
import type { AuthorizeRequest, ProcessorResult } from "@/lib/acquirers/contract";

const FIXTURES = path.resolve(import.meta.dirname, "../../../lib/acquirers/clearhaus/fixtures");
// eslint-disable-next-line @typescript-eslint/no-explicit-any
const fixture = (name: string): any => JSON.parse(readFileSync(path.join(FIXTURES, `${name}.json`), "utf8"));

/** The docs' card: 4111111111111111, 06/2022, CSC 123. */
const docsCard = (securityCode: string | undefined = "123") =>
  new CardDetails({ pan: "4111111111111111", expMonth: 6, expYear: 2022, ...(securityCode ? { securityCode } : {}) });
const request = (extra: Partial<AuthorizeRequest> = {}): AuthorizeRequest => ({
  operationId: "0123456789abcdef0123456789abcdef",
  paymentId: "pay1",
  amount: 2050n,
  currency: "EUR",
  card: docsCard(),
  ...extra,
});

/** Every documented form field, with its value, is in what we send (we add `reference`, our own id). */
function expectDocumentedFields(ours: Record<string, string>, documented: Record<string, string>, skip: readonly string[] = []) {
  for (const [key, value] of Object.entries(documented)) {
    if (skip.includes(key)) continue;
    expect(ours[key], key).toBe(value);
  }
  for (const key of Object.keys(ours)) {
    if (key === "reference") continue;
    expect(Object.keys(documented).concat(skip), `we send ${key}, which the example does not`).toContain(key);
  }
}

describe("clearhaus requests as the docs show them", () => {
  it("authorization (charge_a_cardholder/reserve_money)", () => {
    expectDocumentedFields(toClearhausAuthorize(request({ customerIp: "1.1.1.1" })), fixture("authorize-approved").request.form);
  });

  it("authorization with raw 3-D Secure data (3dsecure_v2.md): every raw field", () => {
    const documented = fixture("authorize-3ds-raw").request.form;
    const ours = toClearhausAuthorize(
      request({
        threeDs: {
          eci: "05",
          authenticationValue: documented["card[3dsecure][v2][raw][av]"],
          dsTransId: documented["card[3dsecure][v2][raw][ds_trans_id]"],
          version: "2.1.0",
          transStatus: "Y",
          messageType: "ARes",
        },
      }),
    );
    expectDocumentedFields(ours, documented);
  });

  it("authorization with the whole ARes (secure_transactions.md): 3dsecure.io's ARes as JSON text in card[3dsecure][v2][ares], nothing raw", () => {
    const documented = fixture("authorize-3ds-ares").request.form;
    const ares = JSON.parse(
      readFileSync(path.resolve(import.meta.dirname, "../../fixtures/acquirers/threedsecureio/auth-frictionless-Y.json"), "utf8"),
    ).response.body;
    const ours = toClearhausAuthorize(
      request({
        customerIp: "1.1.1.1",
        threeDs: {
          eci: ares.eci,
          authenticationValue: ares.authenticationValue,
          dsTransId: ares.dsTransID,
          version: ares.messageVersion,
          transStatus: "Y",
          messageType: "ARes",
          message: JSON.stringify(ares),
        },
      }),
    );
    expect(JSON.parse(ours["card[3dsecure][v2][ares]"]!)).toEqual(ares);
    expect(Object.keys(ours).filter((key) => key.startsWith("card[3dsecure]"))).toEqual(["card[3dsecure][v2][ares]"]);
    expectDocumentedFields(ours, documented, ["card[3dsecure][v2][ares]", "currency", "amount", "card[expire_year]", "card[expire_month]"]);
  });

  it("first-in-series (repeatedly_reserve_money): series[type] with the card and CSC, 3-D Secure as raw data instead of the RReq", () => {
    const documented = fixture("authorize-series-first-recurring").request.form;
    const ours = toClearhausAuthorize(
      request({
        card: new CardDetails({ pan: "4111111111111111", expMonth: 6, expYear: 2026, securityCode: "123" }),
        credentialOnFile: { initiator: "cardholder", storeCredential: true },
      }),
    );
    // A card stored by a one-off payment starts an unscheduled series
    // (docs/decisions/0107-speaking-clearhaus-and-finaro-exactly.md); the docs' example is a subscription.
    expect(ours["series[type]"]).toBe("unscheduled");
    expectDocumentedFields(ours, documented, ["series[type]", "card[3dsecure][v2][rreq]"]);
  });

  it("subsequent-in-series: series[previous][id], the card without CSC, nothing else", () => {
    const documented = fixture("authorize-series-subsequent").request.form;
    const ours = toClearhausAuthorize(
      request({
        card: new CardDetails({ pan: "4111111111111111", expMonth: 6, expYear: 2026 }),
        credentialOnFile: {
          initiator: "merchant",
          paymentType: "scheduled",
          previousProcessorReference: documented["series[previous][id]"],
        },
      }),
    );
    expectDocumentedFields(ours, documented);
  });

  it("partial capture and partial refund: the amount alone", () => {
    const follow = { operationId: "o", authorizationReference: "84412a34-fa29-4369-a098-0165a80e8fda", currency: "EUR" };
    expect(toClearhausAmount({ ...follow, amount: 1000n })).toEqual(fixture("capture-approved-partial").request.form);
    expect(toClearhausAmount({ ...follow, amount: 500n })).toEqual(fixture("refund-approved-partial").request.form);
  });

  it("credit (payout_to_cardholder): no CSC; ip as the docs' example sends it; card[name] when we have the recipient's name", () => {
    const documented = fixture("credit-approved").request.form;
    const credit = {
      operationId: "0123456789abcdef0123456789abcdef",
      paymentId: "p",
      amount: 50_000n,
      currency: "EUR",
      card: docsCard(undefined),
      customerIp: "1.1.1.1",
    };
    expectDocumentedFields(toClearhausCredit(credit), documented);
    expect(toClearhausCredit({ ...credit, customer: { firstName: "Jane", surname: "Doe" } })["card[name]"]).toBe("Jane Doe");
  });

  it("signs the exact body with RS256: the docs' worked example and ActiveMerchant's vector, byte for byte", () => {
    for (const name of ["signature-docs-example", "signature-activemerchant"]) {
      const vector = fixture(name).request;
      const privateKey = fixture("signature-docs-example").request.privateKeyPem;
      const header = clearhausSignatureHeader(
        { apiKey: "2b0c4b3e-5c1f-4a8e-9d2a-6f1e0c7b9a01", signingApiKey: vector.signingApiKey, signingPrivateKey: privateKey },
        vector.rawBody,
      );
      expect(`Signature: ${header.signature}`, name).toBe(vector.expectedSignatureHeader);
    }
  });
});

/** What each recorded or documented answer is, read by us. */
const EXPECTED: Record<string, Partial<ProcessorResult> | Partial<ProcessorResult>[]> = {
  "authorize-approved": { status: "approved", processorReference: "84412a34-fa29-4369-a098-0165a80e8fda", declineClass: "approved" },
  "authorize-approved-transcript-2015": { status: "approved", processorReference: "efb04d12-4bb6-41c0-b030-45ff105641b0" },
  "authorize-3ds-ares": { status: "approved" },
  "authorize-series-first-recurring": { status: "approved", scheme: { schemeTransactionId: "481048839682954" } },
  "authorize-declined-invalid-card-number": {
    status: "declined",
    failure: "declined",
    responsecode: "14",
    acquirerCode: "40110",
    declineClass: "declined-hard",
  },
  "authorize-declined-insufficient-funds": { status: "declined", responsecode: "51", acquirerCode: "40413", declineClass: "declined-soft" },
  "authorize-declined-authentication-required": {
    status: "declined",
    responsecode: "1A",
    acquirerCode: "40416",
    declineClass: "authentication-required",
  },
  "authorize-declined-merchant-blocked": { status: "declined", responsecode: "R1", acquirerCode: "40420", declineClass: "stop-recurring" },
  "authorize-declined-invalid-currency": { status: "failed", failure: "declined", acquirerCode: "40140", message: "invalid currency" },
  "authorize-declined-rule-violation": [
    { status: "failed", failure: "declined", acquirerCode: "40200", declineClass: "declined-soft" },
    { status: "failed", failure: "declined", acquirerCode: "40200", declineClass: "declined-soft" },
  ],
  "authorize-error-general-input": { status: "failed", failure: "declined", acquirerCode: "40000", declineClass: "technical" },
  "authorize-error-missing-amount": { status: "failed", failure: "declined", message: "parameter 'amount' is required" },
  "capture-approved-partial": { status: "approved", processorReference: "d8e92a70-3030-4d4d-8ad2-684b230c1bed" },
  "capture-approved-transcript-2015": { status: "approved" },
  "capture-error-unknown-authorization": { status: "failed", failure: "declined", message: "invalid transaction id" },
  "refund-approved-partial": { status: "approved" },
  "refund-error-unknown-authorization": { status: "failed", failure: "declined", message: "invalid transaction id" },
  "void-approved": { status: "approved" },
  "void-error-unknown-authorization": { status: "failed", failure: "declined", message: "invalid transaction id" },
  "credit-approved": { status: "approved" },
  "error-invalid-signing-key": { status: "failed", failure: "declined", message: "invalid signing api-key" },
};

describe("clearhaus answers as we read them", () => {
  it("covers every fixture with a transaction answer", () => {
    const withAnswers = readdirSync(FIXTURES)
      .map((file) => file.replace(/\.json$/, ""))
      .filter((name) => {
        const body = fixture(name).response?.body;
        return body && (Array.isArray(body) || "status" in body);
      });
    expect(withAnswers.sort()).toEqual(Object.keys(EXPECTED).sort());
  });

  it.each(Object.entries(EXPECTED))("%s", (name, expected) => {
    const body = fixture(name).response.body;
    const bodies = Array.isArray(body) ? body : [body];
    const expectations = Array.isArray(expected) ? expected : [expected];
    bodies.forEach((answer, index) => {
      const result = fromClearhausAnswer(JSON.stringify(answer));
      expect(result, `${name} #${index}`).toBeDefined();
      expect(result).toMatchObject(expectations[index]!);
      // A recorded answer is never an unknown outcome: it says what happened.
      expect(result!.failure).not.toBe("indeterminate");
    });
  });
});
