// For in-process tests that run some cases as a production deployment: this process's configuration
// switched to production for one case, and process.env put back before the next.
import { afterEach, beforeAll, expect } from "vitest";
import { config, resetConfig } from "@/lib/env";
import { secretsEnv } from "./set-env";

/**
 * Keeps process.env as the file's set-up left it (call after useTestDatabase, which sets
 * DATABASE_URL) and puts it back after each test, so that a case run as production leaves the
 * next one local. Call before the file's own afterEach hooks: those run first (vitest runs
 * after-hooks in reverse order), with the case's environment still in place.
 */
export function restoreEnvAfterEach(): void {
  let originalEnv: Record<string, string | undefined> = {};
  beforeAll(() => {
    originalEnv = { ...process.env };
  });
  afterEach(() => {
    for (const key of Object.keys(process.env)) if (!(key in originalEnv)) delete process.env[key];
    Object.assign(process.env, originalEnv);
    resetConfig();
  });
}

/** Runs the rest of the test as a production deployment (same secrets, so the API key still works). */
export function runAsProduction(extra: Record<string, string> = {}): void {
  Object.assign(process.env, {
    NODE_ENV: "production",
    CPS_LOCAL: "",
    ...secretsEnv(),
    ...extra,
  });
  resetConfig();
  expect(config().isProduction).toBe(true);
}
