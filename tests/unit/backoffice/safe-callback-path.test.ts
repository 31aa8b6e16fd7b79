import { describe, expect, it } from "vitest";
import { safeCallbackPath } from "@/lib/auth/safe-callback-path";

describe("safeCallbackPath", () => {
  it("keeps back-office paths with their query", () => {
    expect(safeCallbackPath("/backoffice/payments?status=CAPTURED")).toBe("/backoffice/payments?status=CAPTURED");
    expect(safeCallbackPath(["/backoffice", "/elsewhere"])).toBe("/backoffice");
  });

  it("never leaves the site or the back office, and never loops to sign-in", () => {
    for (const attempt of ["https://evil.example/backoffice", "//evil.example/backoffice", "/\\evil.example", "/backoffice-evil", "/api/health", "/backoffice/sign-in?x=1", "javascript:alert(1)", "", undefined]) {
      expect(safeCallbackPath(attempt)).toBe("/backoffice");
    }
  });
});
