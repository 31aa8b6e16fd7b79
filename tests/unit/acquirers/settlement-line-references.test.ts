// What a settlement line's `reference` is, per acquirer module (issue 40, docs/decisions/0208-
// settlement-lines-matched-by-the-reference-the-connector-sends.md): each module with a reporting API
// says how the reference its connector sends relates to our operation id, and the settlement
// matching reads that instead of expecting our whole id (Clearhaus takes 30 characters of our 32).
import { describe, expect, it } from "vitest";
import { CardDetails } from "@/lib/cards/card-details";
import { ACQUIRER_NAMES } from "@/lib/acquirers/names";
import { reportingOf } from "@/lib/acquirers/reporting";
import { toClearhausAuthorize, toClearhausCredit } from "@/lib/acquirers/clearhaus/transformers";
import { newId } from "@/lib/ids";
import { referenceSearchPrefix } from "@/lib/settlements/reference-rule";

const card = new CardDetails({ pan: "4111111111111111", expMonth: 3, expYear: 2031, securityCode: "123", holderName: "Jane Doe" });

describe("the reference a settlement line carries", () => {
  it("for Clearhaus is the reference its connector sends with an authorization and a credit (the first 30 characters of our id), copied onto their follow-ups", () => {
    const rule = reportingOf("clearhaus")!.lineReference;
    const authorizeId = newId();
    const creditId = newId();
    const authorization = toClearhausAuthorize({ operationId: authorizeId, paymentId: newId(), amount: 1_050n, currency: "DKK", card });
    const credit = toClearhausCredit({ operationId: creditId, paymentId: newId(), amount: 500n, currency: "DKK", card });
    expect(authorizeId).toHaveLength(32);
    expect(rule.of(authorizeId)).toBe(authorization.reference);
    expect(rule.of(creditId)).toBe(credit.reference);
    expect(rule.of(authorizeId)).not.toBe(authorizeId);
    // Captures, refunds and voids are sent without a reference: a line of one names its payment's first operation.
    expect(rule.sentOn).toBe("first-operation");
  });

  it("is a prefix of our operation id for every module with a reporting API, long enough to be searched", () => {
    for (const name of ACQUIRER_NAMES) {
      const rule = reportingOf(name)?.lineReference;
      if (!rule) continue;
      for (let index = 0; index < 20; index++) {
        const id = newId();
        const reference = rule.of(id);
        expect(id.startsWith(reference), `${name}: ${reference} is not a prefix of ${id}`).toBe(true);
        expect(referenceSearchPrefix(reference), name).toBe(reference);
      }
    }
  });

  it("is searched for only when it could be one of our ids: letters and digits, at least 16 of them", () => {
    const id = newId();
    expect(referenceSearchPrefix(id)).toBe(id);
    expect(referenceSearchPrefix(id.slice(0, 30))).toBe(id.slice(0, 30));
    expect(referenceSearchPrefix(id.slice(0, 16))).toBe(id.slice(0, 16));
    // Too short to name one operation; LIKE wildcards and other characters never reach a query.
    for (const reference of [id.slice(0, 15), "order-1", "%", `${id.slice(0, 20)}%`, `${id.slice(0, 20)}_`, "till 7 receipt 000000000000", ""])
      expect(referenceSearchPrefix(reference), reference).toBeUndefined();
  });
});
