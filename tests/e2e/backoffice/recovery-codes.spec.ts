// Newcomer review 4, N3: turning on the second factor must show the ten recovery codes, and keep
// them on screen until the user says they stored them; on Your account, and on the enrolment that
// production forces on every user (/backoffice/secure-account, here with BACKOFFICE_MFA_REQUIRED=1,
// which production turns on). The confirm action renders the page again as "on", which unmounted the
// codes before anyone saw them. Each test waits for the codes, reads them, and signs in with one.
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";
import { expect, test, type Page } from "@playwright/test";
import { generate } from "otplib";
import { startService, type ServiceProcess } from "../../helpers/service-process";
import { E2E } from "../../helpers/e2e/demo-service";

const PASSWORD = "amber falcon lantern 7";

/** A developer of the demo merchant, made with the operator CLI against the suite's service. */
function createUser(email: string): void {
  const demo = JSON.parse(readFileSync(path.resolve(E2E.dataDir, "demo.json"), "utf8")) as { merchantId: string };
  const created = spawnSync("npm", ["run", "-s", "cli", "--", "user", "create", "--merchant", demo.merchantId, "--email", email, "--name", "Rita Recovery", "--role", "developer"], {
    encoding: "utf8",
    input: `${PASSWORD}\n`,
    env: { ...process.env, DATA_DIR: E2E.dataDir },
  });
  expect(created.status, created.stderr).toBe(0);
}

/** From the enrolment form (password asked first): the key, a code, and the ten recovery codes, which must stay. */
async function enrolAndReadCodes(page: Page, password: string): Promise<{ secret: string; codes: string[] }> {
  await page.locator("#totp-start-current-password").fill(password);
  await page.getByRole("button", { name: "Turn on two-factor authentication" }).click();
  await expect(page.getByTestId("totp-secret")).toBeVisible({ timeout: 60_000 });
  const secret = (await page.getByTestId("totp-secret").textContent())!.trim();
  await page.getByLabel("Code from your app").fill(await generate({ secret }));
  await page.getByRole("button", { name: "Confirm and turn on" }).click();
  const items = page.getByTestId("recovery-codes").locator("li");
  await expect(items).toHaveCount(10, { timeout: 60_000 });
  // Still there after the page was rendered again as secured (what hid them before).
  await page.waitForTimeout(3_000);
  await expect(items).toHaveCount(10);
  const codes = (await items.allTextContents()).map((code) => code.trim());
  expect(new Set(codes).size).toBe(10);
  for (const code of codes) expect(code).toMatch(/^[a-z2-9]{5}-[a-z2-9]{5}$/);
  await page.getByRole("button", { name: "I have stored them" }).click();
  await expect(items).toHaveCount(0);
  return { secret, codes };
}

/** Signs in with the password and, at the code step, a recovery code in place of the app's code. */
async function signInWithRecoveryCode(page: Page, baseUrl: string, email: string, code: string): Promise<void> {
  await page.goto(`${baseUrl}/backoffice/sign-in`);
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(PASSWORD);
  await page.getByRole("button", { name: "Sign in" }).click();
  await page.getByLabel("Authentication code").fill(code);
  await page.getByRole("button", { name: "Verify and sign in" }).click();
  await expect(page).toHaveURL(/\/backoffice$/, { timeout: 60_000 });
}

test("N3: Your account shows the ten recovery codes after turning on the second factor, until stored; one signs in", async ({ page }) => {
  test.setTimeout(300_000);
  const email = `recovery-${Date.now()}@example.com`;
  createUser(email);
  await page.goto("/backoffice/sign-in");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(PASSWORD);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page).toHaveURL(/\/backoffice$/, { timeout: 60_000 });
  await page.goto("/backoffice/account");
  const { codes } = await enrolAndReadCodes(page, PASSWORD);
  // Once stored, the card is the one of a factor that is on.
  await expect(page.getByLabel("Current code from your app")).toBeVisible();
  await page.getByRole("button", { name: "Sign out" }).first().click();
  await expect(page).toHaveURL(/\/backoffice\/sign-in/, { timeout: 60_000 });
  await signInWithRecoveryCode(page, E2E.baseURL, email, codes[3]!);
});

test.describe("N3: the enrolment production forces (BACKOFFICE_MFA_REQUIRED=1)", () => {
  let service: ServiceProcess | undefined;
  test.afterAll(async () => {
    await service?.stop();
  });

  test("N3: /backoffice/secure-account shows the ten recovery codes after enrolment, until stored; one signs in", async ({ browser }) => {
    test.setTimeout(300_000);
    // A second local service on the suite's build, every user required to enrol.
    const dataDir = path.resolve(".data-test", `recovery-codes-${Date.now()}`);
    service = await startService({ dataDir, distDir: process.env.NEXT_DIST_DIR ?? ".next", env: { BACKOFFICE_MFA_REQUIRED: "1", THREEDS_SANDBOX_PORT: "0" }, timeoutMs: 240_000 });
    const demo = JSON.parse(readFileSync(path.join(dataDir, "demo.json"), "utf8")) as { email: string; password: string };
    // Another browser context: both services are on localhost, and their session cookies must not meet.
    const context = await browser.newContext({ baseURL: service.baseUrl });
    const page = await context.newPage();
    await page.goto(`${service.baseUrl}/backoffice/sign-in`);
    await page.getByLabel("Email").fill(demo.email);
    await page.getByLabel("Password").fill(demo.password);
    await page.getByRole("button", { name: "Sign in" }).click();
    await expect(page).toHaveURL(/\/backoffice\/secure-account$/, { timeout: 60_000 });
    await expect(page.getByText("Every back-office user needs two-factor authentication here.")).toBeVisible({ timeout: 60_000 });
    const { codes } = await enrolAndReadCodes(page, demo.password);
    await expect(page.getByText("You will be asked for a code from your app at every sign-in.")).toBeVisible();
    await page.getByRole("link", { name: "go to the back office" }).click();
    await expect(page).toHaveURL(/\/backoffice$/, { timeout: 60_000 });
    await page.getByRole("button", { name: "Sign out" }).first().click();
    await expect(page).toHaveURL(/\/backoffice\/sign-in/, { timeout: 60_000 });
    // The demo owner's password is the one in demo.json.
    await page.getByLabel("Email").fill(demo.email);
    await page.getByLabel("Password").fill(demo.password);
    await page.getByRole("button", { name: "Sign in" }).click();
    await page.getByLabel("Authentication code").fill(codes[0]!);
    await page.getByRole("button", { name: "Verify and sign in" }).click();
    await expect(page).toHaveURL(/\/backoffice$/, { timeout: 60_000 });
    await context.close();
  });
});
