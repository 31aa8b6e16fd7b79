// Which mode the configuration selects, and the embedded executor's settings.
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { ConfigError, parseEnv } from "@/lib/env";

const DATA_DIR = mkdtempSync(path.join(tmpdir(), "cps-inngest-env-"));
const base = { DATA_DIR };

describe("Inngest mode", () => {
  it("is embedded with no Inngest variable, server with any of them", () => {
    expect(parseEnv(base).inngestMode).toBe("embedded");
    for (const [name, value] of [
      ["INNGEST_DEV", "1"],
      ["INNGEST_BASE_URL", "http://inngest.internal:8288"],
      ["INNGEST_EVENT_KEY", "key"],
      ["INNGEST_SIGNING_KEY", "signkey-prod-abc"],
    ]) {
      expect(parseEnv({ ...base, [name as string]: value }).inngestMode).toBe("server");
    }
  });

  it("tunes the embedded executor with validated numbers", () => {
    const defaults = parseEnv(base);
    expect(defaults.INNGEST_EMBEDDED_CONCURRENCY).toBe(16);
    expect(defaults.INNGEST_EMBEDDED_POLL_MS).toBe(10_000);
    expect(defaults.INNGEST_EMBEDDED_RETENTION_DAYS).toBe(30);
    expect(parseEnv({ ...base, INNGEST_EMBEDDED_CONCURRENCY: "4", INNGEST_EMBEDDED_POLL_MS: "100" })).toMatchObject({
      INNGEST_EMBEDDED_CONCURRENCY: 4,
      INNGEST_EMBEDDED_POLL_MS: 100,
    });
    expect(() => parseEnv({ ...base, INNGEST_EMBEDDED_CONCURRENCY: "0" })).toThrow(ConfigError);
    expect(() => parseEnv({ ...base, INNGEST_EMBEDDED_POLL_MS: "soon" })).toThrow(/INNGEST_EMBEDDED_POLL_MS/);
  });
});
