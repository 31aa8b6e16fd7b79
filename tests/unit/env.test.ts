import { mkdtempSync, readFileSync, statSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it, vi } from "vitest";
import { legacyAcquirerCredentials, refuseLegacyAcquirerVariables, refuseReportingSandboxPortWithoutApi } from "@/lib/acquirers/environment";
import { ConfigError, parseEnv } from "@/lib/env";

const tmpDataDir = () => mkdtempSync(path.join(os.tmpdir(), "cps-env-"));

describe("parseEnv", () => {
  it("reads THREEDS_SERVER_URL, and the old THREEDS_DS_URL / THREEDS_TEST_DS_URL with a warning", () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => undefined);
    try {
      const current = parseEnv({ DATA_DIR: tmpDataDir(), THREEDS_SERVER_URL: "https://service.3dsecure.io" });
      expect(current.THREEDS_SERVER_URL).toBe("https://service.3dsecure.io");
      expect(warn).not.toHaveBeenCalled();
      const old = parseEnv({
        DATA_DIR: tmpDataDir(),
        THREEDS_DS_URL: "https://service.3dsecure.io",
        THREEDS_TEST_DS_URL: "https://service.sandbox.3dsecure.io",
      });
      expect(old.THREEDS_SERVER_URL).toBe("https://service.3dsecure.io");
      expect(old.THREEDS_TEST_SERVER_URL).toBe("https://service.sandbox.3dsecure.io");
      expect(warn.mock.calls.map(([text]) => String(text))).toEqual([
        expect.stringMatching(/THREEDS_DS_URL is deprecated.*THREEDS_SERVER_URL/),
        expect.stringMatching(/THREEDS_TEST_DS_URL is deprecated.*THREEDS_TEST_SERVER_URL/),
      ]);
      expect(() =>
        parseEnv({ DATA_DIR: tmpDataDir(), THREEDS_DS_URL: "https://a.example", THREEDS_SERVER_URL: "https://b.example" }),
      ).toThrow(/THREEDS_DS_URL: renamed to THREEDS_SERVER_URL/);
    } finally {
      warn.mockRestore();
    }
  });

  it("defaults every API host to the service's own origin", () => {
    const config = parseEnv({ DATA_DIR: tmpDataDir(), PORT: "4100" });
    expect(config.publicBaseUrl).toBe("http://localhost:4100");
    expect(Object.values(config.apiBaseUrls)).toEqual(Array(7).fill("http://localhost:4100"));
    expect(config.backofficeBaseUrl).toBe("http://localhost:4100");
  });

  it("uses a configured host for one interface and trims its trailing slash", () => {
    const config = parseEnv({
      DATA_DIR: tmpDataDir(),
      PUBLIC_BASE_URL: "https://pay.example.com/",
      MIT_BASE_URL: "https://mit.example.com/",
    });
    expect(config.apiBaseUrls.mit).toBe("https://mit.example.com");
    expect(config.apiBaseUrls.cit).toBe("https://pay.example.com");
  });

  it("names the variable and the reason when a value is wrong", () => {
    expect(() => parseEnv({ DATA_DIR: tmpDataDir(), PORT: "http" })).toThrow(ConfigError);
    expect(() => parseEnv({ DATA_DIR: tmpDataDir(), CIT_BASE_URL: "ftp://x" })).toThrow(/CIT_BASE_URL: must be an http\(s\) URL/);
    expect(() => parseEnv({ DATA_DIR: tmpDataDir(), DATABASE_URL: "mysql://x" })).toThrow(/DATABASE_URL/);
    expect(() => parseEnv({ DATA_DIR: tmpDataDir(), CARD_DATA_KEY: "c2hvcnQ=" })).toThrow(/CARD_DATA_KEY: must be 32 bytes/);
  });

  it("generates secrets into the data folder once, readable only by the owner", () => {
    const dir = tmpDataDir();
    const first = parseEnv({ DATA_DIR: dir });
    const second = parseEnv({ DATA_DIR: dir });
    expect(second.secrets).toEqual(first.secrets);
    expect(Buffer.from(first.secrets.cardDataKey, "base64")).toHaveLength(32);
    expect(statSync(path.join(dir, "secrets.json")).mode & 0o777).toBe(0o600);
    expect(JSON.parse(readFileSync(path.join(dir, "secrets.json"), "utf8")).apiKeySecret).toBe(first.secrets.apiKeySecret);
  });

  it("requires the secrets in production instead of generating them", () => {
    expect(() => parseEnv({ DATA_DIR: tmpDataDir(), NODE_ENV: "production" })).toThrow(/SESSION_SECRET: required in production/);
    const key = Buffer.alloc(32, 7).toString("base64");
    const config = parseEnv({
      NODE_ENV: "production",
      SESSION_SECRET: "s".repeat(32),
      CARD_DATA_KEY: key,
      API_KEY_SECRET: "a".repeat(32),
    });
    expect(config.isProduction).toBe(true);
    expect(config.secrets.cardDataKey).toBe(key);
  });

  it("runs the embedded executor unless an Inngest server is configured", () => {
    expect(parseEnv({ DATA_DIR: tmpDataDir() }).inngestMode).toBe("embedded");
    expect(parseEnv({ DATA_DIR: tmpDataDir(), INNGEST_DEV: "1" }).inngestMode).toBe("server");
    expect(parseEnv({ DATA_DIR: tmpDataDir(), INNGEST_BASE_URL: "http://127.0.0.1:8288" }).inngestMode).toBe("server");
    expect(parseEnv({ DATA_DIR: tmpDataDir(), INNGEST_SIGNING_KEY: "signkey-prod-abc" }).inngestMode).toBe("server");
  });
});

describe("the process-wide acquirer credentials of earlier versions", () => {
  const production = {
    NODE_ENV: "production",
    SESSION_SECRET: "s".repeat(40),
    API_KEY_SECRET: "a".repeat(40),
    CARD_DATA_KEY: Buffer.alloc(32, 1).toString("base64"),
  };

  it("are refused by a production start, naming the upgrade command", () => {
    const settings = parseEnv({ ...production, DATA_DIR: tmpDataDir(), CLEARHAUS_API_KEY: "2b0c4b3e-5c1f-4a8e-9d2a-6f1e0c7b9a01" });
    expect(() => refuseLegacyAcquirerVariables(settings)).toThrow(/CLEARHAUS_API_KEY: no longer read in production.*accounts import-env/);
    // Empty values (compose passes ${VAR:-}) are not set; the endpoints stay operator configuration.
    expect(() =>
      refuseLegacyAcquirerVariables(
        parseEnv({
          ...production,
          DATA_DIR: tmpDataDir(),
          CLEARHAUS_API_KEY: "",
          CLEARHAUS_BASE_URL: "https://gateway.test.clearhaus.com",
        }),
      ),
    ).not.toThrow();
  });

  it("are the source of the local sandbox accounts, and must be complete per processor", () => {
    const local = parseEnv({ DATA_DIR: tmpDataDir(), FINARO_MERCHANT_ID: "MID1", FINARO_SIGNATURE_KEY: "key-of-mid-1" });
    expect(() => refuseLegacyAcquirerVariables(local)).not.toThrow();
    expect(legacyAcquirerCredentials(local)).toEqual({ finaro: { merchantId: "MID1", signatureKey: "key-of-mid-1" } });
    expect(() => legacyAcquirerCredentials(parseEnv({ DATA_DIR: tmpDataDir(), FINARO_MERCHANT_ID: "MID1" }))).toThrow(
      /FINARO_SIGNATURE_KEY: required together with FINARO_MERCHANT_ID/,
    );
  });

  it("Bambora Online Checkout credentials of earlier versions are read for nothing and refused by a production start", () => {
    const bambora = { BAMBORA_MERCHANT_NUMBER: "T1", BAMBORA_ACCESS_TOKEN: "a", BAMBORA_SECRET_TOKEN: "s" };
    expect(legacyAcquirerCredentials(parseEnv({ DATA_DIR: tmpDataDir(), ...bambora }))).toEqual({});
    expect(() => refuseLegacyAcquirerVariables(parseEnv({ ...production, DATA_DIR: tmpDataDir(), ...bambora }))).toThrow(
      /BAMBORA_ACCESS_TOKEN: a Bambora Online Checkout credential, which this version does not use/,
    );
  });
});

describe("<NAME>_REPORTING_SANDBOX_PORT, the in-process reporting sandbox's port", () => {
  it("is a port (unset or 0: any free port), not one of the acquirer's own variables", () => {
    const settings = parseEnv({ DATA_DIR: tmpDataDir(), CLEARHAUS_REPORTING_SANDBOX_PORT: "4321" });
    expect(settings.acquirers.clearhaus.reportingSandboxPort).toBe(4321);
    expect(settings.acquirerVariables).not.toHaveProperty("CLEARHAUS_REPORTING_SANDBOX_PORT");
    expect(parseEnv({ DATA_DIR: tmpDataDir() }).acquirers.clearhaus.reportingSandboxPort).toBeUndefined();
    expect(parseEnv({ DATA_DIR: tmpDataDir(), CLEARHAUS_REPORTING_SANDBOX_PORT: "0" }).acquirers.clearhaus.reportingSandboxPort).toBe(0);
    for (const wrong of ["abc", "70000", "-1", "1.5"])
      expect(() => parseEnv({ DATA_DIR: tmpDataDir(), CLEARHAUS_REPORTING_SANDBOX_PORT: wrong }), wrong).toThrow(/CLEARHAUS_REPORTING_SANDBOX_PORT: must be a port number/);
  });

  it("is refused at start for an acquirer that publishes no reporting API, saying so", () => {
    expect(() => refuseReportingSandboxPortWithoutApi(parseEnv({ DATA_DIR: tmpDataDir(), CLEARHAUS_REPORTING_SANDBOX_PORT: "4321" }))).not.toThrow();
    expect(() => refuseReportingSandboxPortWithoutApi(parseEnv({ DATA_DIR: tmpDataDir(), FINARO_REPORTING_SANDBOX_PORT: "0" }))).not.toThrow();
    expect(() => refuseReportingSandboxPortWithoutApi(parseEnv({ DATA_DIR: tmpDataDir(), FINARO_REPORTING_SANDBOX_PORT: "4321" }))).toThrow(
      /FINARO_REPORTING_SANDBOX_PORT: Finaro publishes no reporting API, so no reporting sandbox of it runs; unset it/,
    );
  });
});
