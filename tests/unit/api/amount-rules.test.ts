import { describe, expect, it } from "vitest";
import { ApiError } from "@/lib/errors";
import { captureAmountRule } from "@/lib/payments/follow-ups/capture";
import type { OperationTotals } from "@/lib/payments/operation-totals";
import { refundAmountRule } from "@/lib/payments/follow-ups/refund";
import { voidAmountRule } from "@/lib/payments/follow-ups/void";

const none: OperationTotals = {
  capturedOrReserved: 0n,
  capturedApproved: 0n,
  refundedOrReserved: 0n,
  refundedApproved: 0n,
  voidedOrVoiding: false,
  pendingCaptures: 0,
};
const authorized = { status: "AUTHORIZED" as const, authorizedAmount: 1000n };

function refusal(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(ApiError);
    return (error as ApiError).message;
  }
  throw new Error("expected a refusal");
}

describe("capture", () => {
  it("captures the rest when amount is omitted, any part up to it otherwise", () => {
    expect(captureAmountRule(authorized, none, undefined)).toBe(1000n);
    expect(captureAmountRule(authorized, { ...none, capturedOrReserved: 400n }, undefined)).toBe(600n);
    expect(captureAmountRule({ ...authorized, status: "CAPTURED" }, { ...none, capturedOrReserved: 400n }, 600n)).toBe(600n);
    expect(refusal(() => captureAmountRule(authorized, { ...none, capturedOrReserved: 400n }, 601n))).toBe(
      "amount: exceeds the authorized amount left to capture (600)",
    );
  });

  it("refuses voided, pending and fully captured payments", () => {
    expect(refusal(() => captureAmountRule(authorized, { ...none, voidedOrVoiding: true }, 1n))).toMatch(/^paymentid: /);
    expect(refusal(() => captureAmountRule({ ...authorized, status: "PENDING" }, none, 1n))).toBe(
      "paymentid: the payment cannot be captured in its state (pending)",
    );
    expect(refusal(() => captureAmountRule(authorized, { ...none, capturedOrReserved: 1000n }, undefined))).toMatch(
      /already captured in full/,
    );
  });
});

describe("refund", () => {
  it("refunds up to the captured amount, approved or being captured, less refunds approved or pending", () => {
    const captured = { status: "CAPTURED" as const, authorizedAmount: 1000n };
    const totals = { ...none, capturedApproved: 700n, capturedOrReserved: 700n, refundedOrReserved: 200n };
    expect(refundAmountRule(captured, totals, undefined)).toBe(500n);
    expect(refusal(() => refundAmountRule(captured, totals, 501n))).toBe("amount: exceeds the captured amount left to refund (500)");
    // A capture still pending counts (the refund waits for it: newcomer review F1).
    const capturing = { ...none, capturedOrReserved: 300n, pendingCaptures: 1 };
    expect(refundAmountRule(authorized, capturing, undefined)).toBe(300n);
    expect(refusal(() => refundAmountRule(authorized, capturing, 301n))).toBe("amount: exceeds the captured amount left to refund (300)");
    expect(refusal(() => refundAmountRule(authorized, none, 1n))).toBe(
      "paymentid: the payment cannot be refunded in its state (authorized)",
    );
  });
});

describe("void", () => {
  it("voids the whole authorization of an uncaptured payment only", () => {
    expect(voidAmountRule(authorized, none, undefined)).toBe(1000n);
    expect(voidAmountRule(authorized, none, 1000n)).toBe(1000n);
    expect(refusal(() => voidAmountRule(authorized, none, 999n))).toMatch(/^amount: a void releases the whole authorization/);
    expect(refusal(() => voidAmountRule(authorized, { ...none, capturedOrReserved: 1n, capturedApproved: 1n }, undefined))).toMatch(/refund it instead/);
    expect(refusal(() => voidAmountRule(authorized, { ...none, capturedOrReserved: 1n, pendingCaptures: 1 }, undefined))).toBe(
      "paymentid: a capture of this payment is in progress, and a void cannot follow it: refund the payment instead (a refund waits for the capture)",
    );
    expect(refusal(() => voidAmountRule({ ...authorized, status: "CAPTURED" }, none, undefined))).toMatch(/^paymentid: /);
  });
});

describe("refusals name the state as the back office shows it (newcomer review F8)", () => {
  it("says partially refunded, partially captured and timed out rather than the coarse stored status", () => {
    const refunded = { status: "REFUNDED" as const, authorizedAmount: 12_500n };
    expect(refusal(() => voidAmountRule(refunded, { ...none, capturedApproved: 5_000n, refundedApproved: 1_500n }, undefined))).toBe(
      "paymentid: the payment cannot be voided in its state (partially refunded)",
    );
    expect(refusal(() => voidAmountRule(refunded, { ...none, capturedApproved: 5_000n, refundedApproved: 5_000n }, undefined))).toBe(
      "paymentid: the payment cannot be voided in its state (refunded)",
    );
    expect(refusal(() => voidAmountRule({ status: "CAPTURED", authorizedAmount: 12_500n }, { ...none, capturedApproved: 5_000n }, undefined))).toBe(
      "paymentid: the payment cannot be voided in its state (partially captured)",
    );
    expect(refusal(() => captureAmountRule({ status: "TIMED_OUT", authorizedAmount: 0n }, none, undefined))).toBe(
      "paymentid: the payment cannot be captured in its state (timed out)",
    );
  });
});
