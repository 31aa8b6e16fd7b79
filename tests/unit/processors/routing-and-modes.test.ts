import { afterEach, describe, expect, it } from "vitest";
import { processorOrder } from "@/lib/routing/routing";
import { processorTimeoutMs } from "@/lib/acquirers/registry";
import { resetConfig } from "@/lib/env";
import { decideThreeDsStep, parseThreeDsMode } from "@/lib/threeds/three-ds-mode";
import { decideAuthorization, TEST_CARDS } from "@/lib/sandboxes/acquirers/test-cards";

describe("processorOrder", () => {
  const rules = new Map([
    [1, ["finaro", "clearhaus", "bambora"] as const],
    [2, ["bambora", "finaro"] as const],
  ]);

  it("takes the request's list in its order, without duplicates or unknown names", () => {
    expect(processorOrder({ requested: ["bambora", "finaro", "bambora", "visa"], merchantRules: rules })).toEqual(["bambora", "finaro"]);
  });

  it("uses the merchant's rule without a list; an unknown rule falls back to rule 1, no rules to the default", () => {
    expect(processorOrder({ merchantRules: rules })).toEqual(["finaro", "clearhaus", "bambora"]);
    expect(processorOrder({ merchantRules: rules, rule: 2 })).toEqual(["bambora", "finaro"]);
    expect(processorOrder({ requested: [], merchantRules: rules, rule: 7 })).toEqual(["finaro", "clearhaus", "bambora"]);
    expect(processorOrder({ merchantRules: new Map() })).toEqual(["finaro", "clearhaus", "bambora"]);
  });
});

describe("set3ds", () => {
  it("accepts any letter case and defaults to FORCE_3DS", () => {
    expect(parseThreeDsMode("fallback_3ds")).toBe("FALLBACK_3DS");
    expect(parseThreeDsMode(" Skip_3ds ")).toBe("SKIP_3DS");
    expect(parseThreeDsMode(undefined)).toBe("FORCE_3DS");
    expect(parseThreeDsMode("")).toBe("FORCE_3DS");
    expect(parseThreeDsMode("always")).toBeUndefined();
  });

  it("SKIP_3DS never authenticates", () => {
    expect(decideThreeDsStep({ mode: "SKIP_3DS", at: "start" })).toEqual({ step: "authorize_without_3ds" });
  });

  it("FORCE_3DS challenges and fails on anything but Y/A", () => {
    expect(decideThreeDsStep({ mode: "FORCE_3DS", at: "start" })).toEqual({ step: "authenticate" });
    expect(decideThreeDsStep({ mode: "FORCE_3DS", at: { ares: "Y" } })).toEqual({ step: "authorize_with_3ds" });
    expect(decideThreeDsStep({ mode: "FORCE_3DS", at: { ares: "A" } })).toEqual({ step: "authorize_with_3ds" });
    expect(decideThreeDsStep({ mode: "FORCE_3DS", at: { ares: "C" } })).toEqual({ step: "challenge" });
    for (const ares of ["N", "R", "U"] as const) expect(decideThreeDsStep({ mode: "FORCE_3DS", at: { ares } }).step).toBe("fail");
    expect(decideThreeDsStep({ mode: "FORCE_3DS", at: { challenge: "Y" } })).toEqual({ step: "authorize_with_3ds" });
    expect(decideThreeDsStep({ mode: "FORCE_3DS", at: { challenge: "N" } }).step).toBe("fail");
    expect(decideThreeDsStep({ mode: "FORCE_3DS", at: { challenge: "cancelled" } }).step).toBe("fail");
    expect(decideThreeDsStep({ mode: "FORCE_3DS", at: { declinedWithout3ds: "authentication-required" } }).step).toBe("fail");
  });

  it("FALLBACK_3DS authorizes without 3-D Secure when a challenge is wanted, and challenges only after authentication-required", () => {
    expect(decideThreeDsStep({ mode: "FALLBACK_3DS", at: { ares: "C" } })).toEqual({ step: "authorize_without_3ds" });
    expect(decideThreeDsStep({ mode: "FALLBACK_3DS", at: { ares: "Y" } })).toEqual({ step: "authorize_with_3ds" });
    expect(decideThreeDsStep({ mode: "FALLBACK_3DS", at: { declinedWithout3ds: "authentication-required" } })).toEqual({ step: "challenge" });
    for (const declined of ["declined-soft", "technical", "declined-hard", "stop-recurring"] as const)
      expect(decideThreeDsStep({ mode: "FALLBACK_3DS", at: { declinedWithout3ds: declined } }).step).toBe("fail");
    expect(decideThreeDsStep({ mode: "FALLBACK_3DS", at: { ares: "U" } })).toEqual({ step: "authorize_without_3ds" });
    expect(decideThreeDsStep({ mode: "FALLBACK_3DS", at: { ares: "R" } }).step).toBe("fail");
  });
});

describe("sandbox test cards", () => {
  const future = { expMonth: 12, expYear: new Date().getUTCFullYear() + 1 };
  it("behave the same in every sandbox except the per-processor fallback cards", () => {
    for (const card of TEST_CARDS) {
      const decisions = (["finaro", "clearhaus", "bambora"] as const).map(
        (processor) => decideAuthorization({ processor, card: { pan: card.pan, ...future } }).kind,
      );
      if (["4000000000001000", "4000000000080103"].includes(card.pan)) expect(decisions).toEqual(["decline", "approve", "approve"]);
      else if (card.pan === "4000000000002008") expect(decisions).toEqual(["decline", "decline", "approve"]);
      else if (card.pan === "4000000000000150") expect(decisions).toEqual(["approve_late", "approve", "approve"]);
      else expect(new Set(decisions).size, card.pan).toBe(1);
    }
  });

  it("check the security code length per scheme", () => {
    expect(decideAuthorization({ processor: "finaro", card: { pan: "378282246310005", ...future, securityCode: "123" } })).toEqual({
      kind: "decline",
      code: "N7",
    });
    expect(decideAuthorization({ processor: "finaro", card: { pan: "378282246310005", ...future, securityCode: "1234" } })).toEqual({
      kind: "approve",
    });
  });
});

describe("processor time-outs", () => {
  const saved = { ...process.env };
  afterEach(() => {
    process.env = { ...saved };
    resetConfig();
  });

  it("are configurable globally and per processor", () => {
    process.env.PROCESSOR_TIMEOUT_MS = "2500";
    process.env.CLEARHAUS_TIMEOUT_MS = "700";
    resetConfig();
    expect(processorTimeoutMs("finaro")).toBe(2500);
    expect(processorTimeoutMs("clearhaus")).toBe(700);
  });

  it("default to a bounded 15 seconds", () => {
    delete process.env.PROCESSOR_TIMEOUT_MS;
    delete process.env.FINARO_TIMEOUT_MS;
    resetConfig();
    expect(processorTimeoutMs("finaro")).toBe(15_000);
  });
});
