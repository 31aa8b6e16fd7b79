// The payment page's refusals: the API's codes and reasons become one sentence, the field and where to fix it.
import { describe, expect, it } from "vitest";
import { describeOperationError } from "@/lib/backoffice/describe-operation-error";
import { runAction, UserFacingError } from "@/lib/backoffice/action-result";
import { invalidParameter, rateLimited } from "@/lib/errors";

const capture = { operation: "capture" as const, currency: "DKK" };

describe("describeOperationError", () => {
  it("sends a merchant without a notification address to Settings → Notifications", () => {
    const described = describeOperationError(invalidParameter("notificationurl", "is required: no notification address is configured for this merchant"), capture);
    expect(described.message).toBe("No notification address is configured, so the result could not reach your systems: set one in Settings → Notifications, then try again.");
    expect(described.link).toEqual({ href: "/backoffice/settings/notifications", label: "Settings → Notifications" });
  });

  it("says an amount too large in the currency's units, next to the amount field", () => {
    const described = describeOperationError(invalidParameter("amount", "exceeds the authorized amount left to capture (7500)"), capture);
    expect(described).toEqual({ message: "The amount is more than the 75.00 DKK left to capture. Enter at most that, or leave the amount empty to capture it all.", field: "amount" });
    expect(describeOperationError(invalidParameter("amount", "exceeds the captured amount left to refund (150)"), { operation: "refund", currency: "JPY" }).message).toContain("the 150 JPY left to refund");
  });

  it("names the state a payment cannot be operated in, with a link to its operations", () => {
    const described = describeOperationError(invalidParameter("paymentid", "the payment cannot be voided in its state (timed out)"), { operation: "void", currency: "DKK" });
    expect(described.message).toBe("This payment cannot be voided while it is timed out: see the operations of this payment.");
    expect(described.link?.href).toBe("#operations");
  });

  it("says how long to wait when rate limited, and anything unknown plainly", () => {
    expect(describeOperationError(rateLimited(3, "10/s"), capture).message).toBe("Too many requests at once: wait 3 seconds and try again.");
    expect(describeOperationError(invalidParameter("note", "too long"), capture).message).toBe("The capture was refused: note: too long.");
  });

  it("reaches the form as a message, a field error and a link", async () => {
    const state = await runAction(async () => {
      throw new UserFacingError("Too much.", { field: "amount", link: { href: "/x", label: "X" } });
    });
    expect(state).toEqual({ status: "error", message: "Too much.", fieldErrors: { amount: "Too much." }, link: { href: "/x", label: "X" } });
  });
});
