// Security review 4, L7: back-office pages carried only `frame-ancestors` as their Content Security
// Policy, so the pages that reveal the signing secret, show new API keys and TOTP secrets ran any
// script that found its way into them. Against the real service in Chromium, signed in as the demo
// owner: every back-office page carries a policy with a per-response script nonce ('strict-dynamic'),
// default-src, object-src 'none', base-uri and form-action; every page exercised works under it with
// no violation reported (including a server action: the secret's reveal); and an inline script
// injected into a page's HTML does not run.
import { describe, expect, it } from "vitest";
import type { Page } from "@playwright/test";
import { CHROMIUM_CASE_BOUND_MS, useBackofficeInChromium } from "@/tests/helpers/backoffice-service";

/** Back-office pages of a signed-in owner (each a route of app/backoffice/(app)). */
const SIGNED_IN_PAGES = [
  "/backoffice",
  "/backoffice/payments",
  "/backoffice/disputes",
  "/backoffice/settlements",
  "/backoffice/developers",
  "/backoffice/developers/logs",
  "/backoffice/developers/notifications",
  "/backoffice/audit-log",
  "/backoffice/account",
  "/backoffice/settings/api-key",
  "/backoffice/settings/team",
  "/backoffice/settings/notifications",
  "/backoffice/settings/hosted",
  "/backoffice/settings/acquirer-accounts",
  "/backoffice/settings/payouts",
];
const SIGNED_OUT_PAGES = ["/backoffice/sign-in", "/backoffice/forgot-password"];

const running = useBackofficeInChromium("backoffice-csp");

/** Records every CSP violation a page reports (the event fires in the page; exposed to the test). */
async function watchViolations(page: Page): Promise<string[]> {
  const violations: string[] = [];
  await page.exposeFunction("__reportViolation", (text: string) => violations.push(text));
  await page.addInitScript(() => {
    document.addEventListener("securitypolicyviolation", (event) => {
      (window as unknown as { __reportViolation(text: string): void }).__reportViolation(
        `${event.violatedDirective} blocked ${event.blockedURI || "inline"} on ${location.pathname}`,
      );
    });
  });
  return violations;
}

function directives(policy: string | null): Map<string, string[]> {
  return new Map(
    (policy ?? "")
      .split(";")
      .map((part) => part.trim().split(/\s+/))
      .filter((words) => words[0])
      .map(([name, ...values]) => [name!, values]),
  );
}

describe("L7: back-office pages run only the service's own scripts", () => {
  it("L7: every back-office page has a nonce script policy, default-src, object-src 'none', base-uri and form-action, and reports no violation", async () => {
    const { backoffice, browser } = running;
    const page = await browser.context.newPage();
    const violations = await watchViolations(page);
    const nonces = new Set<string>();
    const visit = async (pathname: string) => {
      const response = await page.goto(`${backoffice.service.baseUrl}${pathname}`);
      expect(response?.status(), pathname).toBe(200);
      const policy = directives(response!.headers()["content-security-policy"] ?? null);
      const script = policy.get("script-src") ?? [];
      const nonce = script.find((value) => value.startsWith("'nonce-"));
      expect({ pathname, nonce: Boolean(nonce), strictDynamic: script.includes("'strict-dynamic'"), unsafeInline: script.includes("'unsafe-inline'") }).toEqual({
        pathname,
        nonce: true,
        strictDynamic: true,
        unsafeInline: false,
      });
      nonces.add(nonce!);
      expect({ pathname, objectSrc: policy.get("object-src"), baseUri: policy.has("base-uri"), defaultSrc: policy.has("default-src"), formAction: policy.has("form-action") }).toEqual({
        pathname,
        objectSrc: ["'none'"],
        baseUri: true,
        defaultSrc: true,
        formAction: true,
      });
      expect(policy.get("frame-ancestors"), pathname).toEqual(["'none'"]);
      await page.waitForLoadState("networkidle");
    };
    for (const pathname of SIGNED_OUT_PAGES) await visit(pathname);
    await backoffice.signInPage(page, backoffice.demo.email, backoffice.demo.password);
    for (const pathname of SIGNED_IN_PAGES) await visit(pathname);
    // A nonce per response, never repeated.
    expect(nonces.size).toBe(SIGNED_OUT_PAGES.length + SIGNED_IN_PAGES.length);
    // The pages' scripts run: a server action (reveal the signing secret, with the password) works.
    await page.goto(`${backoffice.service.baseUrl}/backoffice/settings/api-key`);
    await page.getByRole("button", { name: "Reveal", exact: true }).click();
    await page.locator("#reveal-secret-current-password").fill(backoffice.demo.password);
    await page.getByRole("button", { name: "Reveal secret" }).click();
    await page.getByTestId("notification-secret").filter({ hasText: /^whsec_/ }).waitFor({ timeout: 60_000 });
    expect(violations).toEqual([]);
    await page.close();
  }, CHROMIUM_CASE_BOUND_MS);

  it("L7: an inline script injected into a back-office page's HTML does not run", async () => {
    const { backoffice, browser } = running;
    const page = await browser.context.newPage();
    const violations = await watchViolations(page);
    await backoffice.signInPage(page, backoffice.demo.email, backoffice.demo.password);
    // The page as the service sent it, headers included, with a script tag slipped into its markup
    // (what an XSS in any rendered field would amount to).
    await page.route("**/backoffice/settings/api-key", async (route) => {
      const original = await route.fetch();
      const html = (await original.text()).replace("<head>", '<head><script>window.__injected = "ran"</script>');
      await route.fulfill({ response: original, body: html });
    });
    await page.goto(`${backoffice.service.baseUrl}/backoffice/settings/api-key`);
    await page.waitForLoadState("networkidle");
    expect(await page.evaluate(() => (window as unknown as { __injected?: string }).__injected)).toBeUndefined();
    expect(violations.some((violation) => violation.startsWith("script-src"))).toBe(true);
    await page.close();
  }, CHROMIUM_CASE_BOUND_MS);
});
