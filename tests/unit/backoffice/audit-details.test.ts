// The audit log says what changed, from what to what, and amounts in major units with their
// currency (issue 28, newcomer review minors).
import { describe, expect, it } from "vitest";
import { describeAuditDetails } from "@/components/backoffice/audit-details";

describe("describeAuditDetails", () => {
  it("names each notification URL that changed, from → to, and leaves the others out", () => {
    const details = {
      before: { defaultNotificationUrl: "https://shop.example/a", completionNotificationUrl: null, lifecycleNotificationUrl: "https://shop.example/life" },
      after: { defaultNotificationUrl: "https://shop.example/b", completionNotificationUrl: "https://shop.example/c", lifecycleNotificationUrl: "https://shop.example/life" },
    };
    expect(describeAuditDetails(details)).toBe(
      "Default notification URL: https://shop.example/a → https://shop.example/b · Payment completion URL: (none) → https://shop.example/c",
    );
    expect(describeAuditDetails({ before: details.after, after: details.after })).toBe("nothing changed");
  });

  it("shows lists and role changes from → to", () => {
    expect(describeAuditDetails({ before: [], after: ["https://shop.example", "https://m.shop.example"] })).toBe("(none) → https://shop.example, https://m.shop.example");
    expect(describeAuditDetails({ email: "a@b.c", from: "DEVELOPER", to: "VIEWER" })).toBe("DEVELOPER → VIEWER · email: a@b.c");
  });

  it("shows an amount in major units with its currency, and a refund's reason in words", () => {
    expect(describeAuditDetails({ responseid: "r1", amount: "500", currency: "EUR", reason: "requested_by_customer" })).toBe("amount: 5.00 EUR · reason: Requested by the customer · responseid: r1");
    expect(describeAuditDetails({ amount: "1500", currency: "JPY" })).toBe("amount: 1,500 JPY");
    // Written before amounts carried their currency: the stored value as it is.
    expect(describeAuditDetails({ amount: "500" })).toBe("amount: 500");
    expect(describeAuditDetails({ amount: "full" })).toBe("amount: the full amount");
  });

  it("leaves nested objects out and shows nothing for no details", () => {
    expect(describeAuditDetails({ name: "Orange", styling: { color: "#fff" } })).toBe("name: Orange");
    expect(describeAuditDetails(null)).toBe("");
  });
});
