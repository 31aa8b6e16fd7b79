// What each acquirer's look-up is worth
// (docs/decisions/0105-unknown-outcomes-when-not-found-is-trusted-what.md): against a real
// base URL Clearhaus offers no look-up by our reference and never calls the sandbox-only endpoint;
// Bambora North America's are its real API's (issue 26), trusted for every operation it has;
// Finaro's retrieval exists but its "not found" proves nothing; our sandboxes' look-ups are complete.
// And the answers that leave an outcome unknown are classed as such.
import { describe, expect, it } from "vitest";
import { createBamboraConnector } from "@/lib/acquirers/bambora/client";
import { fromBamboraError } from "@/lib/acquirers/bambora/transformers";
import { createClearhausConnector } from "@/lib/acquirers/clearhaus/client";
import { fromClearhausTransaction } from "@/lib/acquirers/clearhaus/transformers";
import { createFinaroConnector } from "@/lib/acquirers/finaro/client";
import { fromFinaroResponse } from "@/lib/acquirers/finaro/transformers";
import { LOOKUP_KINDS, LookupNotOfferedError } from "@/lib/acquirers/contract";

// Never reached: the connectors refuse before any request (a real host would be a network call).
const REAL = {
  clearhaus: (sandboxExtensions?: boolean) =>
    createClearhausConnector({ baseUrl: "https://gateway.test.clearhaus.com", timeoutMs: 1_000, sandboxExtensions }),
  bambora: (sandboxExtensions?: boolean) =>
    createBamboraConnector({
      baseUrl: "https://api.na.bambora.com",
      timeoutMs: 1_000,
      sandboxExtensions,
    }),
  finaro: (sandboxExtensions?: boolean) =>
    createFinaroConnector({
      baseUrl: "https://intconsole.credorax.com/intenv/service/gateway",
      timeoutMs: 1_000,
      sandboxExtensions,
    }),
};

describe("look-up capabilities against the real gateways", () => {
  it("clearhaus offers no look-up of any operation, and never calls the sandbox's search", async () => {
    const connector = REAL.clearhaus();
    for (const kind of LOOKUP_KINDS) {
      expect(connector.lookups[kind], kind).toMatchObject({ lookup: false, notFoundIsProof: false });
      await expect(connector.lookupOperation({ kind, operationId: "op1" }, { credentials: { apiKey: "k" } })).rejects.toBeInstanceOf(
        LookupNotOfferedError,
      );
    }
  });

  it("bambora (North America) finds every operation it has by our reference, trusted, the same against its sandbox; payouts it has none of", async () => {
    for (const connector of [REAL.bambora(), REAL.bambora(true)]) {
      for (const kind of ["authorize", "capture", "refund", "void"] as const)
        expect(connector.lookups[kind], kind).toMatchObject({ lookup: true, notFoundIsProof: true });
      expect(connector.lookups.payout).toMatchObject({ lookup: false });
    }
    const credentials = { merchantId: "300200578", paymentsPasscode: "p", reportingPasscode: "r" };
    await expect(REAL.bambora().lookupOperation({ kind: "payout", operationId: "op1" }, { credentials })).rejects.toBeInstanceOf(
      LookupNotOfferedError,
    );
  });

  it("finaro's O=101 retrieval exists but its 'not found' is no proof (no published not-found code; -7 is 'no response from gateway')", () => {
    const connector = REAL.finaro();
    for (const kind of LOOKUP_KINDS) expect(connector.lookups[kind], kind).toMatchObject({ lookup: true, notFoundIsProof: false });
  });

  it.each(["clearhaus", "finaro"] as const)("our %s sandbox's look-up (a sandbox-only extension) is complete", (name) => {
    const connector = REAL[name](true);
    for (const kind of LOOKUP_KINDS) expect(connector.lookups[kind], kind).toMatchObject({ lookup: true, notFoundIsProof: true });
  });
});

describe("answers that leave the outcome unknown are never declines", () => {
  it("finaro Z2 -7 (no response from gateway) and 4 (interchange time-out) are indeterminate", () => {
    expect(fromFinaroResponse({ Z2: "-7", Z1: "x" })).toMatchObject({ status: "failed", failure: "indeterminate" });
    expect(fromFinaroResponse({ Z2: "4", Z1: "x" })).toMatchObject({ status: "failed", failure: "indeterminate" });
    expect(fromFinaroResponse({ Z2: "-9", Z1: "x" })).toMatchObject({ status: "failed", failure: "declined" });
  });

  it("clearhaus 50000 (a void is allowed on it, so funds may be held) is indeterminate, not retryable elsewhere", () => {
    expect(fromClearhausTransaction({ id: "x", status: { code: 50000 } })).toMatchObject({ status: "failed", failure: "indeterminate" });
  });

  it("bambora's technical failures (category 4) and lost processor answers are indeterminate", () => {
    expect(fromBamboraError({ code: 9999, category: 4, message: "System error" })).toMatchObject({ status: "failed", failure: "indeterminate" });
    expect(fromBamboraError({ code: 55, category: 1, message: "Transaction timeout - No transaction Response" })).toMatchObject({
      status: "failed",
      failure: "indeterminate",
    });
  });
});
