// Where the back office's mode switch lands (lib/backoffice/mode-switch.ts): the same page, or its
// list when the page showed one record of the mode left; never another site (the form's `back`
// field is the browser's to forge).
import { describe, expect, it } from "vitest";
import { modeSwitchTarget } from "@/lib/backoffice/mode-switch";
import { roleMayActInLiveMode } from "@/lib/auth/roles";

describe("modeSwitchTarget", () => {
  it("stays on lists and settings, with their query", () => {
    expect(modeSwitchTarget("/backoffice/payments?q=order7")).toBe("/backoffice/payments?q=order7");
    expect(modeSwitchTarget("/backoffice/settings/api-key")).toBe("/backoffice/settings/api-key");
    expect(modeSwitchTarget("/backoffice")).toBe("/backoffice");
  });

  it("goes from one record's page to its list: the other mode has no such record", () => {
    expect(modeSwitchTarget("/backoffice/payments/0123456789abcdef0123456789abcdef")).toBe("/backoffice/payments");
    expect(modeSwitchTarget("/backoffice/developers/logs/0123456789abcdef")).toBe("/backoffice/developers/logs");
    expect(modeSwitchTarget("/backoffice/payments/export")).toBe("/backoffice/payments");
  });

  it("never leaves the back office", () => {
    for (const forged of ["https://evil.example/", "//evil.example/backoffice", "/api/openapi.json", "/backoffice/sign-in", "", undefined]) {
      expect(modeSwitchTarget(forged), String(forged)).toBe("/backoffice");
    }
  });
});

describe("roleMayActInLiveMode", () => {
  it("lets developers act in live mode unless an owner keeps it to owners; reading and owners' rights are never narrowed", () => {
    expect(roleMayActInLiveMode("DEVELOPER", "payments:write")).toBe(true);
    expect(roleMayActInLiveMode("DEVELOPER", "payments:write", "OWNER")).toBe(false);
    expect(roleMayActInLiveMode("DEVELOPER", "keys:write", "OWNER")).toBe(false);
    expect(roleMayActInLiveMode("DEVELOPER", "settings:write", "OWNER")).toBe(false);
    expect(roleMayActInLiveMode("OWNER", "payments:write", "OWNER")).toBe(true);
    expect(roleMayActInLiveMode("OWNER", "team:write", "OWNER")).toBe(true);
  });
});
