// Test mode and live mode (docs/decisions/0108-test-mode-and-live-mode.md): every API key, hosted
// session, payment (with its operations), stored card, notification and request-log row belongs to
// one of them, and nothing of one mode is visible in the other. Test mode goes to test acquirer
// accounts and the built-in sandboxes only and takes only test cards; live mode never reaches a
// sandbox and refuses test cards.
import { z } from "zod";

export const MODES = ["test", "live"] as const;
export type Mode = (typeof MODES)[number];

export const modeSchema = z.enum(MODES, { error: "must be test or live" });

export function isMode(value: unknown): value is Mode {
  return value === "test" || value === "live";
}

export const MODE_LABELS: Record<Mode, string> = { test: "Test mode", live: "Live mode" };
