// What the back-office browser tests share: signing in, screenshots at desktop and phone widths,
// and direct database access (to the running service's embedded database) for another merchant's
// rows that no page of the demo merchant could create.
import { mkdirSync } from "node:fs";
import path from "node:path";
import { expect, type Locator, type Page } from "@playwright/test";
import { E2E, demoCredentials } from "./demo-service";

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

/** Adds a member on the team page as the signed-in owner (confirmed with the demo owner's password) and waits for the confirmation. */
export async function addMember(page: Page, member: { name: string; email: string; password: string; role: "OWNER" | "DEVELOPER" | "VIEWER" }): Promise<void> {
  await page.goto("/backoffice/settings/team");
  await page.getByLabel("Name").fill(member.name);
  await page.getByLabel("Email").fill(member.email);
  await page.getByLabel("First password").fill(member.password);
  await page.getByLabel("Role", { exact: true }).selectOption(member.role);
  await page.locator("#add-member-current-password").fill(demoCredentials().password);
  await page.getByRole("button", { name: "Add user" }).click();
  await expect(page.getByText(`${member.email} can now sign in`)).toBeVisible();
}

/** The add-account form's fields every acquirer shares; `credentials` are the acquirer's own fields, by label. */
export interface AcquirerAccountForm {
  acquirer: string | { label: string };
  name: string;
  acquirerMerchantId: string;
  merchantName: string;
  country: string;
  mcc: string;
  descriptor: string;
  currencies: string;
  credentials: Record<string, string>;
}

/** Fills the add-account form (`add`, its test id add-acquirer-account) and submits it with the demo owner's password. */
export async function submitAcquirerAccount(add: Locator, form: AcquirerAccountForm): Promise<void> {
  await add.getByLabel("Acquirer", { exact: true }).selectOption(form.acquirer);
  await add.getByLabel("Name", { exact: true }).fill(form.name);
  await add.getByLabel("Acquirer merchant id", { exact: true }).fill(form.acquirerMerchantId);
  await add.getByLabel("Merchant name (as the schemes see it)", { exact: true }).fill(form.merchantName);
  await add.getByLabel("Country (ISO 3166, e.g. DK)", { exact: true }).fill(form.country);
  await add.getByLabel("MCC", { exact: true }).fill(form.mcc);
  await add.getByLabel("Statement descriptor", { exact: true }).fill(form.descriptor);
  await add.getByLabel("Currencies", { exact: true }).fill(form.currencies);
  for (const [label, value] of Object.entries(form.credentials)) await add.getByLabel(label, { exact: true }).fill(value);
  await add.getByLabel("Your password", { exact: true }).fill(demoCredentials().password);
  await add.getByRole("button", { name: "Add account" }).click();
}

/**
 * A full-page screenshot kept as an artifact for a person to look at: written locally, not under CI,
 * whose output is its log (as Playwright's traces, playwright.config.ts); each costs the browser a
 * full-page render and a PNG encoding. What a test asserts about the layout it asserts on the page.
 */
export async function keepScreenshot(page: Page, file: string): Promise<void> {
  if (process.env.CI) return;
  mkdirSync(path.dirname(file), { recursive: true });
  await page.screenshot({ path: file, fullPage: true });
}

/** Full-page screenshots of the current page at desktop and phone widths, kept as test artifacts. */
export async function screenshots(page: Page, name: string): Promise<void> {
  const original = page.viewportSize() ?? { width: 1280, height: 900 };
  await page.setViewportSize({ width: 1280, height: 900 });
  await keepScreenshot(page, path.join(SCREENSHOT_DIR, `${name}-desktop.png`));
  await page.setViewportSize({ width: 390, height: 844 });
  await keepScreenshot(page, path.join(SCREENSHOT_DIR, `${name}-phone.png`));
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
export async function screenshotsAt1440And390(page: Page, name: string, dir = "test-results/screenshots"): Promise<void> {
  const original = page.viewportSize();
  await page.mouse.move(0, 0); // no tooltip left open by an earlier hover
  for (const { name: width, ...size } of WIDE_AND_PHONE) {
    try {
      await page.setViewportSize(size);
      await keepScreenshot(page, path.join(dir, `${name}-${width}.png`));
    } catch (error) {
      console.warn(`screenshot ${name}-${width} not taken: ${String(error)}`);
    }
  }
  if (original) await page.setViewportSize(original);
}
