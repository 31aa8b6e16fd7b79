// Log redaction keeps the service's own ids readable: an operator alert must name the operation.
import { describe, expect, it } from "vitest";
import { redactCardNumbers } from "@/lib/cards/redact-card-numbers";
import { newId } from "@/lib/ids";

describe("redactCardNumbers", () => {
  it("leaves the service's ids whole, also those holding a run of 8 or more digits", () => {
    expect(redactCardNumbers("capture 5219abfb5cad45dc1234567890af1067 of payment x")).toBe("capture 5219abfb5cad45dc1234567890af1067 of payment x");
    for (let index = 0; index < 2_000; index++) {
      const id = newId();
      expect(redactCardNumbers(`operation ${id} needs an operator`)).toBe(`operation ${id} needs an operator`);
    }
  });

  it("still redacts card numbers, spaced or glued to text, and a 32-digit token with no letter", () => {
    expect(redactCardNumbers("card 4111 1111 1111 1111 declined")).toBe("card [redacted digits] declined");
    expect(redactCardNumbers("x4111111111111111y")).toBe("x[redacted digits]y");
    expect(redactCardNumbers("41111111111111114111111111111111")).not.toContain("4111");
    expect(redactCardNumbers("pan=5555555555554444&cvc=123")).toBe("pan=[redacted digits]&cvc=123");
  });
});
