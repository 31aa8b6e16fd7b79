// Security review 4, M2: no page listed pending invitations and none could be withdrawn, so an
// invitation sent to a wrong address, or by someone about to leave, stayed usable for 72 hours.
// Against the real service in Chromium, as the demo owner: Settings → Team lists the pending
// invitations (address, role, who sent it, until when) and an owner revokes one; the revocation is in
// the audit log, and the invitation's link then says it is no longer valid.
import { describe, expect, it } from "vitest";
import { CHROMIUM_CASE_BOUND_MS, useBackofficeInChromium } from "@/tests/helpers/backoffice-service";

const running = useBackofficeInChromium("invitations-page");

describe("M2: pending invitations are listed and can be revoked", () => {
  it("M2: an owner sees a pending invitation on Settings → Team, revokes it, the audit log says so and the link stops working", async () => {
    const { backoffice, browser } = running;
    const page = await browser.context.newPage();
    const base = backoffice.service.baseUrl;
    const email = `wrong-address-${Date.now()}@example.com`;
    await backoffice.signInPage(page, backoffice.demo.email, backoffice.demo.password);
    await page.goto(`${base}/backoffice/settings/team`);
    await page.locator("#invite-email").fill(email);
    await page.locator("#invite-role").selectOption("OWNER");
    await page.locator("#invite-current-password").fill(backoffice.demo.password);
    await page.getByRole("button", { name: "Send invitation" }).click();
    await page.getByText(`Invitation sent to ${email}`).waitFor({ timeout: 60_000 });
    const { db } = await import("@/lib/db");
    const mail = await db().localMail.findFirstOrThrow({ where: { to: email } });
    const link = /\/backoffice\/invitation\/[A-Za-z0-9_-]{43}/.exec(mail.text)![0];

    await page.goto(`${base}/backoffice/settings/team`);
    const pending = page.getByTestId("pending-invitation").filter({ hasText: email });
    await pending.waitFor({ timeout: 60_000 });
    expect(await pending.innerText()).toMatch(/Owner/);
    expect(await pending.innerText()).toContain(backoffice.demo.email);
    // The revoke asks first (window.confirm, naming the address); the owner confirms.
    const asked: string[] = [];
    page.once("dialog", (dialog) => {
      asked.push(dialog.message());
      void dialog.accept();
    });
    await pending.getByRole("button", { name: `Revoke the invitation of ${email}` }).click();
    await page.getByText(`The invitation of ${email} is revoked`).waitFor({ timeout: 60_000 });
    expect(asked).toEqual([`Revoke the invitation of ${email}? Its link stops working at once.`]);
    await page.reload();
    expect(await page.getByTestId("pending-invitation").filter({ hasText: email }).count()).toBe(0);

    await page.goto(`${base}/backoffice/audit-log`);
    const row = page.getByTestId("audit-row").filter({ hasText: "Revoked an invitation" }).filter({ hasText: email });
    await row.first().waitFor({ timeout: 30_000 });

    await page.context().clearCookies();
    await page.goto(`${base}${link}`);
    await page.getByText("This invitation has expired or was used already").waitFor({ timeout: 30_000 });
    await page.close();
  }, CHROMIUM_CASE_BOUND_MS);
});
