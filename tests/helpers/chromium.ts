// Debian's Chromium driven from a vitest file (security tests that need a real browser: frames,
// Content-Security-Policy, script that must not run). The flags of every browser run here (scripts/chromium.ts), a fresh
// profile every launch; close() ends only the browser this launch started.
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { chromium, type BrowserContext, type Page } from "@playwright/test";
import { CHROMIUM_FLAGS, CHROMIUM_PATH } from "../../scripts/chromium";

export const CHROMIUM_ARGS = ["--headless", ...CHROMIUM_FLAGS];

export interface LaunchedChromium {
  context: BrowserContext;
  close(): Promise<void>;
}

export async function launchChromium(): Promise<LaunchedChromium> {
  const profile = mkdtempSync(path.join(os.tmpdir(), "cps-chromium-"));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM_PATH,
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

export interface ShopPageEvent {
  name: string;
  payload: Record<string, unknown>;
}

/**
 * Pays on a bare shop page of a test (our fields in #pan, #expmonth, #expyear and #securitycode, a
 * #pay button calling goPay, every callback pushed to window.cpsEvents) as a cardholder would: waits
 * for jsinitsuccess, types the card field by field, presses Pay and waits until the payment ended
 * (success, failure or timeout). The callbacks the page recorded.
 */
export async function payOnShopPage(
  page: Page,
  card: { pan: string; expmonth: string; expyear: string; securitycode: string },
  { typingDelayMs }: { typingDelayMs: number },
): Promise<ShopPageEvent[]> {
  await page.waitForFunction(() => (window as unknown as { cpsEvents?: { name: string }[] }).cpsEvents?.some((event) => event.name === "jsinitsuccess"), null, {
    timeout: 60_000,
  });
  for (const id of ["pan", "expmonth", "expyear", "securitycode"] as const) {
    const input = page.frameLocator(`#${id} iframe`).locator("input");
    await input.click();
    await input.pressSequentially(card[id], { delay: typingDelayMs });
  }
  await page.click("#pay");
  await page.waitForFunction(
    () => (window as unknown as { cpsEvents?: { name: string }[] }).cpsEvents?.some((event) => ["jspaymentsuccess", "jspaymentfailed", "jspaymenttimeout"].includes(event.name)),
    null,
    { timeout: 120_000 },
  );
  return page.evaluate(() => (window as unknown as { cpsEvents: ShopPageEvent[] }).cpsEvents);
}
