// Finaro's (Credorax) requests and recorded answers from the public clients (tests/fixtures/acquirers/
// finaro, each naming its source) through our transformers: we send the fields the clients send,
// and we read each recorded answer as what it is.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { CardDetails } from "@/lib/cards/card-details";
import { checkFinaroAnswerSignature, finaroSignature } from "@/lib/acquirers/finaro/signature";
import {
  fromFinaroResponse,
  parseFinaroBody,
  toFinaroAuthorize,
  toFinaroCapture,
  toFinaroPayout,
  toFinaroRefund,
  toFinaroRetrieve,
  toFinaroVoid,
} from "@/lib/acquirers/finaro/transformers";
import type { ProcessorResult } from "@/lib/acquirers/contract";

const FIXTURES = path.resolve(import.meta.dirname, "../../../lib/acquirers/finaro/fixtures");
// eslint-disable-next-line @typescript-eslint/no-explicit-any
const fixture = (name: string): any => JSON.parse(readFileSync(path.join(FIXTURES, `${name}.json`), "utf8"));

/** The recorded form's literal values (placeholders like "<pan>" and the signature K left out). */
function literal(form: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(form).filter(([key, value]) => key !== "K" && !/^<.*>$/.test(value)));
}

const card = new CardDetails({ pan: "4018810000100036", expMonth: 12, expYear: 2034, securityCode: "123", holderName: "Longbob Longsen" });

describe("finaro requests as the public clients send them", () => {
  it("retrieval ([SDK-CR] getTestRetrieval, O=101): the SDK's minimum fields M O a1 d1 g4, g4 the original a1", () => {
    const documented = fixture("retrieval-request").request.form;
    const ours = toFinaroRetrieve("90f7449d555f7bed0a2c5d780475f0bf", "SPREE978", "2a349969e0ed61fb0db59fc9f32d2fb3");
    expect(Object.keys(ours).sort()).toEqual(Object.keys(documented).filter((key) => key !== "K").sort());
    expect(ours).toMatchObject({ M: "SPREE978", O: "101", a1: "2a349969e0ed61fb0db59fc9f32d2fb3", g4: "90f7449d555f7bed0a2c5d780475f0bf" });
    expect(ours.d1).toMatch(/^\d{1,3}(\.\d{1,3}){3}$/);
  });

  it("authorization ([AM-CR] authorize): M O a1 a4 a5 b1-b5 c1 c3 d1, the fallbacks for what we do not know", () => {
    const documented = fixture("authorize-approved").request.form;
    const ours = toFinaroAuthorize({ operationId: "90f7449d555f7bed0a2c5d780475f0bf", paymentId: "p", amount: 100n, currency: "EUR", card }, "SPREE978");
    expect(ours).toMatchObject(literal(documented));
    for (const key of Object.keys(documented).filter((name) => name !== "K")) expect(ours, key).toHaveProperty(key);
  });

  it("external 3-D Secure 2 ([AM-CR] add_normalized_3d_secure_2_data): i8 eci:cavv:none, 3ds_version, 3ds_dstrxid", () => {
    const documented = fixture("authorize-3ds-external").request.form;
    const [eci, cavv] = documented.i8.split(":");
    const ours = toFinaroAuthorize(
      {
        operationId: "90f7449d555f7bed0a2c5d780475f0bf",
        paymentId: "p",
        amount: 100n,
        currency: "EUR",
        card,
        threeDs: { eci, authenticationValue: cavv, dsTransId: documented["3ds_dstrxid"], version: "2", transStatus: "Y", messageType: "ARes" },
      },
      "SPREE978",
    );
    expect(ours).toMatchObject({ i8: documented.i8, "3ds_version": documented["3ds_version"], "3ds_dstrxid": documented["3ds_dstrxid"] });
  });

  it("capture: g2 = the authorization's z1, g3 its z4, g4 its a1 (the recorded capture, field for field)", () => {
    const form = fixture("capture-approved").request.form;
    const ours = toFinaroCapture(
      { operationId: form.a1, authorizationReference: form.g2, authorizationCode: form.g3, authorizationOperationId: form.g4, amount: 100n, currency: "EUR" },
      form.M,
    );
    expect(ours).toEqual(literal(form));
  });

  it("refund: g2/g3/g4 of the capture it gives back (the recorded refund, field for field)", () => {
    const form = fixture("refund-approved").request.form;
    const ours = toFinaroRefund(
      {
        operationId: form.a1,
        authorizationReference: "auth",
        capture: { operationId: form.g4, processorReference: form.g2, authorizationCode: form.g3 },
        amount: 100n,
        currency: "EUR",
      },
      form.M,
    );
    expect(ours).toEqual(literal(form));
  });

  it("void: g2/g3/g4 and d1, no amount", () => {
    const form = fixture("void-approved").request.form;
    const ours = toFinaroVoid(
      { operationId: "a1void", authorizationReference: form.g2, authorizationCode: form.g3, authorizationOperationId: form.g4, amount: 100n, currency: "EUR" },
      form.M,
    );
    expect(ours).toEqual({ ...literal(form), a1: "a1void" });
  });

  it("credit (O=35): the card without CVV, c1/c3/d1, the recipient's names as j5/j13", () => {
    const documented = fixture("credit-approved").request.form;
    const ours = toFinaroPayout(
      {
        operationId: "868f8b942fae639d28e27e8933d575d4",
        paymentId: "p",
        amount: 100n,
        currency: "EUR",
        card: card.withoutSecurityCode(),
        customer: { firstName: "Test", surname: "McTest" },
      },
      "SPREE978",
    );
    // The recipient's names make c1 too (the card has its holder name here: it wins).
    expect(ours).toMatchObject(literal(documented));
    expect(ours.b5).toBeUndefined();
  });

  it("signs as the SHA-256 test vectors say", () => {
    const { signatureKey, vectors } = fixture("signature-vectors").request;
    for (const vector of vectors) expect(finaroSignature(vector.params, signatureKey)).toBe(vector.sha256);
  });
});

/** What each recorded answer is, read by us. */
const EXPECTED: Record<string, Partial<ProcessorResult>> = {
  "authorize-approved": {
    status: "approved",
    authorizationcode: "006597",
    processorReference: "8a829449535154bc0153595952a2517a",
    declineClass: "approved",
  },
  "authorize-declined": { status: "declined", failure: "declined", responsecode: "57", declineClass: "declined-hard" },
  "authorize-declined-do-not-honour": { status: "declined", responsecode: "05", declineClass: "declined-soft" },
  "authorize-declined-sca-required": { status: "declined", responsecode: "1A", declineClass: "authentication-required" },
  "authorize-declined-revocation": { status: "declined", responsecode: "R1", declineClass: "stop-recurring" },
  "authorize-error-card-not-identified": {
    status: "failed",
    failure: "declined",
    message: "Card cannot be identified",
    declineClass: "technical",
  },
  "authorize-error-i8-invalid": { status: "failed", failure: "declined" },
  "capture-approved": { status: "approved", processorReference: "8a82944a535157060153595966ba51f9", authorizationcode: "006597" },
  "capture-error-g4-missing": { status: "failed", failure: "declined", responsecode: "30" },
  "capture-error-g4-missing-mk": { status: "failed", failure: "declined", responsecode: "30" },
  "capture-error-reference-not-found": { status: "failed", failure: "declined" },
  "credit-approved": { status: "approved", authorizationcode: undefined },
  "credit-declined": { status: "declined", responsecode: "57" },
  "referral-cft-approved": { status: "approved", authorizationcode: "HOSTOK" },
  "refund-approved": { status: "approved" },
  "sale-approved": { status: "approved", authorizationcode: "006596" },
  "void-approved": { status: "approved" },
  "void-error-g4-missing": { status: "failed", failure: "declined", responsecode: "30" },
  "void-error-g4-missing-mk": { status: "failed", failure: "declined", responsecode: "09" },
  "refund-error-g4-missing": { status: "failed", failure: "declined", responsecode: "30" },
  "refund-error-reference-not-found": { status: "failed", failure: "declined", message: "Referred to transaction has not been found." },
  "void-error-reference-not-found": { status: "failed", failure: "declined", message: "Referred to transaction has not been found." },
  "referral-cft-error-not-found": { status: "failed", failure: "declined", message: "Referred to transaction has not been found." },
  "sale-approved-java-sample": { status: "approved", authorizationcode: "123456" },
  "sale-approved-transcript": { status: "approved", authorizationcode: "006592" },
  "sale-declined": { status: "declined", failure: "declined", responsecode: "57" },
};

describe("finaro answers as we read them", () => {
  it.each(Object.entries(EXPECTED))("%s", (name, expected) => {
    const response = fixture(name).response;
    const text = response.raw ?? new URLSearchParams(response.fields).toString();
    const parsed = parseFinaroBody(text);
    expect(parsed, name).toBeDefined();
    const result = fromFinaroResponse(parsed!);
    expect(result).toMatchObject(expected);
    expect(result.failure).not.toBe("indeterminate");
  });

  it("covers every recorded answer that carries a result code (z2)", () => {
    const withResult = readdirSync(FIXTURES)
      .map((file) => file.replace(/\.json$/, ""))
      .filter((name) => {
        const response = fixture(name).response;
        return Boolean(response?.raw || response?.fields?.z2);
      });
    expect(withResult.sort()).toEqual(Object.keys(EXPECTED).sort());
  });

  it("a refusal recorded without K is told apart from a signed answer whose K does not hold", () => {
    const unsigned = fixture("authorize-error-card-not-identified").response.raw;
    expect(checkFinaroAnswerSignature(unsigned, "any key")).toBe("missing");
    // A recorded signed answer under a key we do not know does not verify.
    expect(checkFinaroAnswerSignature(fixture("sale-approved").response.raw, "not their key")).toBe("invalid");
    const ours = { M: "M1", O: "2", z1: "abc", z2: "0" };
    const signed = new URLSearchParams({ ...ours, K: finaroSignature(ours, "key") }).toString();
    expect(checkFinaroAnswerSignature(signed, "key")).toBe("valid");
  });
});
