// Environment variables for a test file's services, set (or unset) and read again at once.
import { randomBytes } from "node:crypto";
import { afterEach } from "vitest";
import { config, resetConfig } from "@/lib/env";

/**
 * Sets each variable, unsetting those given as undefined (so that `setEnv(saved)` puts back what a
 * file found), and makes the configuration read them again.
 */
export function setEnv(values: Record<string, string | undefined>): void {
  for (const [key, value] of Object.entries(values)) {
    if (value === undefined) delete process.env[key];
    else process.env[key] = value;
  }
  resetConfig();
}

/**
 * Two fresh card-data keys for a key-rotation test, and `useKeys(current, previous)` to run this
 * process's card code under them as a service configured with them would; the keys the file found
 * are put back after each test.
 */
export function useCardDataKeys(): { oldKey: string; newKey: string; useKeys(current: string, previous?: string): void } {
  const saved = { CARD_DATA_KEY: process.env.CARD_DATA_KEY, CARD_DATA_PREVIOUS_KEYS: process.env.CARD_DATA_PREVIOUS_KEYS };
  afterEach(() => setEnv(saved));
  return {
    oldKey: randomBytes(32).toString("base64"),
    newKey: randomBytes(32).toString("base64"),
    useKeys: (current, previous = "") => setEnv({ CARD_DATA_KEY: current, CARD_DATA_PREVIOUS_KEYS: previous }),
  };
}

/**
 * This process's three secrets as the environment of a service or CLI it starts: what it sealed (a
 * merchant's signing secret, a stored card) the child opens, and an API key it issued the child
 * accepts.
 */
export function secretsEnv(): { SESSION_SECRET: string; CARD_DATA_KEY: string; API_KEY_SECRET: string } {
  const { secrets } = config();
  return { SESSION_SECRET: secrets.sessionSecret, CARD_DATA_KEY: secrets.cardDataKey, API_KEY_SECRET: secrets.apiKeySecret };
}
