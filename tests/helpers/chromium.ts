// Debian's Chromium driven from a vitest file (security tests that need a real browser: frames,
// Content-Security-Policy, script that must not run). Same flags as playwright.config.ts, a fresh
// profile every launch; close() ends only the browser this launch started.
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { chromium, type BrowserContext } from "@playwright/test";

export const CHROMIUM_ARGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

export interface LaunchedChromium {
  context: BrowserContext;
  close(): Promise<void>;
}

export async function launchChromium(): Promise<LaunchedChromium> {
  const profile = mkdtempSync(path.join(os.tmpdir(), "cps-chromium-"));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
    headless: true,
    args: CHROMIUM_ARGS,
  });
  return {
    context,
    async close() {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}
