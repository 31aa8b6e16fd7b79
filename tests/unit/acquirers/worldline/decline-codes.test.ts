// Worldline's decline codes in the routing's six decline classes, each with its reference.
import { describe, expect, it } from "vitest";
import { WORLDLINE_ERROR_CODES, classifyWorldlineDecline } from "@/lib/acquirers/bambora/worldline/decline-codes";
import { DECLINE_CLASSES } from "@/lib/acquirers/contract";

describe("worldline decline classes", () => {
  it("every code has a class, a meaning and a reference; issuer codes carry their ISO code", () => {
    for (const [code, meaning] of Object.entries(WORLDLINE_ERROR_CODES)) {
      expect(code).toMatch(/^\d{8}$/);
      expect(DECLINE_CLASSES).toContain(meaning.class);
      expect(meaning.meaning.length, code).toBeGreaterThan(3);
      expect(meaning.source, code).toMatch(/\[(OGONE-ERR|WL-MAG)\]/);
      if (/^30\d\d1001$/.test(code) && code !== "30001001") expect(meaning.iso, code).toBe(code.slice(2, 4));
    }
  });

  it("each class is represented", () => {
    const classes = new Set(Object.values(WORLDLINE_ERROR_CODES).map((meaning) => meaning.class));
    for (const cls of ["declined-soft", "declined-hard", "technical", "authentication-required"] as const) expect(classes).toContain(cls);
    // stop-recurring comes from Worldline's re-attempt instructions.
    expect(classifyWorldlineDecline(["30051001"], "dontStorePanCredentials").class).toBe("stop-recurring");
  });

  it("classes the cards' classic answers as the schemes do", () => {
    expect(classifyWorldlineDecline(["30051001"])).toMatchObject({ class: "declined-soft", iso: "05" });
    expect(classifyWorldlineDecline(["30511001"])).toMatchObject({ class: "declined-soft", iso: "51" });
    expect(classifyWorldlineDecline(["30541001"])).toMatchObject({ class: "declined-hard", iso: "54" });
    expect(classifyWorldlineDecline(["30411001"])).toMatchObject({ class: "declined-hard", iso: "41" });
    expect(classifyWorldlineDecline(["30431001"])).toMatchObject({ class: "declined-hard", iso: "43" });
    expect(classifyWorldlineDecline(["30141001"])).toMatchObject({ class: "declined-hard", iso: "14" });
    expect(classifyWorldlineDecline(["50001087"])).toMatchObject({ class: "authentication-required", iso: "1A" });
    expect(classifyWorldlineDecline(["30681001"])).toMatchObject({ class: "technical" });
  });

  it("Worldline's re-attempt instruction wins over the table", () => {
    expect(classifyWorldlineDecline(["30511001"], "neverRetry").class).toBe("declined-hard");
    expect(classifyWorldlineDecline(["30541001"], "retryLater").class).toBe("declined-soft");
    expect(classifyWorldlineDecline(["30051001"], "someFutureValue").class).toBe("declined-soft");
  });

  it("a code without a public meaning is declined-soft and says so; the first known code of several counts", () => {
    expect(classifyWorldlineDecline(["99999999"])).toMatchObject({ class: "declined-soft", code: "99999999", iso: "05" });
    expect(classifyWorldlineDecline(["99999999"]).meaning).toMatch(/no public meaning/);
    expect(classifyWorldlineDecline([])).toMatchObject({ class: "declined-soft", code: "" });
    expect(classifyWorldlineDecline(["50001111", "30431001"])).toMatchObject({ class: "declined-hard", code: "30431001" });
  });
});
