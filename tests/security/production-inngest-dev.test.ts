// Item 8 of the security issue (second half): with INNGEST_DEV set, the Inngest SDK turns off the
// signature check on /api/inngest, so anyone who can reach the service could run its jobs. A
// production start must refuse it, with a message that names the variable: through the real
// launcher (`scripts/start.ts`) and through the configuration rules it uses.
import { randomBytes } from "node:crypto";
import path from "node:path";
import { spawn } from "node:child_process";
import { describe, expect, it } from "vitest";
import { ConfigError, parseEnv } from "@/lib/env";
import { npmScript } from "@/tests/helpers/service-process";

const ROOT = path.resolve(import.meta.dirname, "../..");

const productionSecrets = {
  NODE_ENV: "production",
  CPS_LOCAL: "",
  SESSION_SECRET: randomBytes(32).toString("base64url"),
  CARD_DATA_KEY: randomBytes(32).toString("base64"),
  API_KEY_SECRET: randomBytes(32).toString("base64url"),
  INNGEST_SIGNING_KEY: "signkey-prod-0123456789abcdef",
  INNGEST_EVENT_KEY: "event-key",
  PUBLIC_BASE_URL: "https://pay.example",
  // A database that is never reached: the start must stop before it tries.
  DATABASE_URL: "postgresql://nobody:nothing@127.0.0.1:1/none",
};

describe("item 8: production refuses INNGEST_DEV", () => {
  it("item 8: production configuration with INNGEST_DEV is refused with a ConfigError naming it", () => {
    expect(() => parseEnv({ ...productionSecrets, INNGEST_DEV: "1" })).toThrow(ConfigError);
    expect(() => parseEnv({ ...productionSecrets, INNGEST_DEV: "1" })).toThrow(/INNGEST_DEV: must not be set in production/);
    // The same settings without it, and local runs with it, are accepted.
    expect(parseEnv(productionSecrets).isProduction).toBe(true);
    expect(parseEnv({ ...productionSecrets, CPS_LOCAL: "1", INNGEST_DEV: "1" }).isProduction).toBe(false);
  });

  it("item 8: a production start with INNGEST_DEV set exits at once and says why", async () => {
    // The launcher itself, as an operator runs it (no build is needed: it must stop before building or listening).
    const child = spawn(...npmScript("start"), {
      cwd: ROOT,
      env: { PATH: process.env.PATH, HOME: process.env.HOME, ...productionSecrets, INNGEST_DEV: "1", PORT: "3439", DATA_DIR: path.join(ROOT, ".data-test", `auth-sec-prod-${process.pid}`) } as NodeJS.ProcessEnv,
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
    const exited = await new Promise<number | null>((resolve) => {
      const timer = setTimeout(() => {
        child.kill("SIGKILL");
        resolve(null);
      }, 90_000);
      child.once("exit", (code) => {
        clearTimeout(timer);
        resolve(code);
      });
    });
    expect(exited, output).not.toBeNull();
    expect(exited).not.toBe(0);
    expect(output).toMatch(/INNGEST_DEV: must not be set in production/);
  });
});
