// Card-data keys for a unit test: `useCardKeys(current, previous)` configures them (with the other
// secrets a configuration needs) and `useCardKeysPerTest(key)` has that key as the only one,
// configured before each test of a file and removed after it.
import { randomBytes } from "node:crypto";
import { afterEach, beforeEach } from "vitest";
import { resetConfig } from "@/lib/env";

export function newCardKey(): string {
  return randomBytes(32).toString("base64");
}

export function useCardKeys(current: string, previous = ""): void {
  process.env.CARD_DATA_KEY = current;
  process.env.CARD_DATA_PREVIOUS_KEYS = previous;
  process.env.SESSION_SECRET = "s".repeat(40);
  process.env.API_KEY_SECRET = "a".repeat(40);
  resetConfig();
}

/** Each test of the file starts with `current` as the only card key; none is left configured after it. */
export function useCardKeysPerTest(current: string): void {
  beforeEach(() => useCardKeys(current));
  afterEach(() => {
    delete process.env.CARD_DATA_KEY;
    delete process.env.CARD_DATA_PREVIOUS_KEYS;
    resetConfig();
  });
}
