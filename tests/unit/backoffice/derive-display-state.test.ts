// The state the back office shows follows what the operations did, not the coarse stored status.
import { describe, expect, it } from "vitest";
import { DISPLAY_STATES, DISPLAY_STATE_LABELS, deriveDisplayState, type DisplayStateInput } from "@/lib/payments/derive-display-state";
import { parsePaymentFilters } from "@/lib/backoffice/payment-filters";

const payment = (overrides: Partial<DisplayStateInput>): DisplayStateInput => ({
  status: "AUTHORIZED",
  paymentType: "cit",
  authorizedAmount: 12_500n,
  capturedAmount: 0n,
  refundedAmount: 0n,
  authorizationAttempted: true,
  ...overrides,
});

describe("deriveDisplayState", () => {
  it("calls a payment captured 50 and refunded 10 of 125 partially refunded, not refunded (stored REFUNDED)", () => {
    expect(deriveDisplayState(payment({ status: "REFUNDED", capturedAmount: 5_000n, refundedAmount: 1_000n }))).toBe("partially_refunded");
  });

  it("calls a payment refunded as much as was captured refunded, even when not all was captured", () => {
    expect(deriveDisplayState(payment({ status: "REFUNDED", capturedAmount: 5_000n, refundedAmount: 5_000n }))).toBe("refunded");
    expect(deriveDisplayState(payment({ status: "REFUNDED", capturedAmount: 12_500n, refundedAmount: 12_500n }))).toBe("refunded");
  });

  it("tells a partial capture from a full one (both stored CAPTURED)", () => {
    expect(deriveDisplayState(payment({ status: "CAPTURED", capturedAmount: 5_000n }))).toBe("partially_captured");
    expect(deriveDisplayState(payment({ status: "CAPTURED", capturedAmount: 12_500n }))).toBe("captured");
  });

  it("shows an approved payout as a payout, whatever its stored status says", () => {
    expect(deriveDisplayState(payment({ paymentType: "payout", status: "CAPTURED", authorizedAmount: 0n, capturedAmount: 0n }))).toBe("payout");
    expect(deriveDisplayState(payment({ paymentType: "payout", status: "DECLINED", authorizedAmount: 0n }))).toBe("declined");
    expect(deriveDisplayState(payment({ paymentType: "payout", status: "PENDING", authorizedAmount: 0n }))).toBe("pending");
  });

  it("tells a window that closed during an authorization (timed out) from one the cardholder left (abandoned)", () => {
    expect(deriveDisplayState(payment({ status: "TIMED_OUT", authorizedAmount: 0n, authorizationAttempted: true }))).toBe("timed_out");
    expect(deriveDisplayState(payment({ status: "TIMED_OUT", authorizedAmount: 0n, authorizationAttempted: false }))).toBe("abandoned");
  });

  it("keeps the plain states", () => {
    expect(deriveDisplayState(payment({ status: "AUTHORIZED" }))).toBe("authorized");
    expect(deriveDisplayState(payment({ status: "VOIDED" }))).toBe("voided");
    expect(deriveDisplayState(payment({ status: "DECLINED", authorizedAmount: 0n }))).toBe("declined");
    expect(deriveDisplayState(payment({ status: "FAILED", authorizedAmount: 0n }))).toBe("failed");
    expect(deriveDisplayState(payment({ status: "PENDING", authorizedAmount: 0n }))).toBe("pending");
    expect(deriveDisplayState(payment({ status: "TOKENIZED", authorizedAmount: 0n }))).toBe("tokenized");
  });

  it("has a label for every state, and the list filter accepts each of them", () => {
    for (const state of DISPLAY_STATES) {
      expect(DISPLAY_STATE_LABELS[state]).toMatch(/^[A-Z]/);
      expect(parsePaymentFilters({ status: state })).toEqual({ filters: { status: state }, errors: {} });
    }
    expect(parsePaymentFilters({ status: "REFUNDED" }).filters.status).toBe("refunded");
    expect(parsePaymentFilters({ status: "nope" }).errors.status).toBeDefined();
  });
});
