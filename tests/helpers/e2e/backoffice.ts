// What the back-office browser tests share: signing in, screenshots at desktop and phone widths,
// and direct database access (to the running service's embedded database) for another merchant's
// rows that no page of the demo merchant could create.
import { mkdirSync } from "node:fs";
import path from "node:path";
import { expect, type Page } from "@playwright/test";
import { E2E } from "./demo-service";

export const SCREENSHOT_DIR = "test-results/backoffice";

export async function signIn(page: Page, email: string, password: string): Promise<void> {
  await page.goto("/backoffice/sign-in");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page).toHaveURL(/\/backoffice$/);
  await expect(page.getByRole("heading", { name: "Overview" })).toBeVisible();
}

export async function signOut(page: Page): Promise<void> {
  await page.getByRole("button", { name: "Sign out" }).first().click();
  await expect(page).toHaveURL(/\/backoffice\/sign-in/);
}

/** Full-page screenshots of the current page at desktop and phone widths, kept as test artifacts. */
export async function screenshots(page: Page, name: string): Promise<void> {
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  const original = page.viewportSize() ?? { width: 1280, height: 900 };
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.screenshot({ path: path.join(SCREENSHOT_DIR, `${name}-desktop.png`), fullPage: true });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.screenshot({ path: path.join(SCREENSHOT_DIR, `${name}-phone.png`), fullPage: true });
  // Nothing may overflow sideways on a phone.
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  expect(overflow, `${name} scrolls sideways at phone width`).toBeLessThanOrEqual(1);
  await page.setViewportSize(original);
}

/** Points this test process at the running service's database (same secrets, same data folder). */
export async function useServiceDatabase(): Promise<void> {
  process.env.DATA_DIR = E2E.dataDir;
  const { startEmbeddedPostgres } = await import("@/lib/db/embedded-postgres");
  const { resetConfig } = await import("@/lib/env");
  resetConfig();
  const embedded = await startEmbeddedPostgres({ dataDir: E2E.dataDir });
  process.env.DATABASE_URL = embedded.url;
  resetConfig();
}

export const WIDE_AND_PHONE = [
  { name: "1440", width: 1440, height: 900 },
  { name: "390", width: 390, height: 844 },
] as const;

/**
 * Full-page screenshots at 1440 and 390 px under test-results/screenshots/<name>-<width>.png, kept as
 * artifacts; a screenshot that cannot be taken never fails the run, and the viewport is put back.
 */
export async function screenshotsAt1440And390(page: Page, name: string): Promise<void> {
  const original = page.viewportSize();
  await page.mouse.move(0, 0);
  for (const { name: width, ...size } of WIDE_AND_PHONE) {
    try {
      mkdirSync("test-results/screenshots", { recursive: true });
      await page.setViewportSize(size);
      await page.screenshot({ path: path.join("test-results/screenshots", `${name}-${width}.png`), fullPage: true });
    } catch (error) {
      console.warn(`screenshot ${name}-${width} not taken: ${String(error)}`);
    }
  }
  if (original) await page.setViewportSize(original);
}
