// Invitations and "forgot password" in Chromium (issue 28), on a local service without SMTP_URL: the
// mails are kept and read from the local outbox. An owner invites a person, who joins from the link,
// signs in, forgets the password, and sets a new one from the reset link; used links are refused.
import { expect, test, type Page } from "@playwright/test";
import { demoCredentials } from "../../helpers/e2e/demo-service";
import { screenshotsAt1440And390, signIn, signOut } from "../../helpers/e2e/backoffice";

// The reset mail is written after the answer has gone (next/server's after(), so that the answer
// takes as long for an address without an account): the outbox may not have it yet when the page
// says "on its way". As a person would, reload the outbox until it shows; a page read once would
// wait for a mail that arrived a moment later (under CI, where no screenshot gives it that moment).
async function linkFromOutbox(page: Page, to: string, subject: RegExp): Promise<string> {
  const mail = page.getByTestId("kept-mail").filter({ hasText: to }).filter({ hasText: subject }).first();
  await expect(async () => {
    await page.goto("/backoffice/outbox");
    await expect(mail).toBeVisible({ timeout: 1_000 });
  }).toPass({ timeout: 15_000 });
  const text = await mail.locator("pre").innerText();
  const link = text.match(/https?:\/\/\S+/)?.[0];
  expect(link, text).toBeTruthy();
  return new URL(link!).pathname;
}

test("invite by email, join from the link, forget the password, set a new one from the mailed link", async ({ page }) => {
  const demo = demoCredentials();
  const email = `invitee-${Date.now()}@example.com`;
  await signIn(page, demo.email, demo.password);
  await page.goto("/backoffice/settings/team");
  await page.locator("#invite-email").fill(email);
  await page.locator("#invite-role").selectOption("DEVELOPER");
  await page.locator("#invite-current-password").fill(demo.password);
  await page.getByRole("button", { name: "Send invitation" }).click();
  await expect(page.getByText(`Invitation sent to ${email}`)).toBeVisible();
  await signOut(page);

  const invitation = await linkFromOutbox(page, email, /invited/);
  await page.goto(invitation);
  await expect(page.getByText(`You are invited as ${email}`)).toBeVisible();
  await screenshotsAt1440And390(page, "invitation");
  await page.getByLabel("Your name").fill("Invited Person");
  await page.getByLabel("New password").fill("invited person's password");
  await page.getByRole("button", { name: "Join" }).click();
  await expect(page.getByText(`Welcome. Sign in as ${email}`)).toBeVisible();
  await page.goto(invitation);
  await expect(page.getByText("This invitation has expired or was used already")).toBeVisible();

  await page.goto("/backoffice/sign-in");
  await page.getByRole("link", { name: "Forgot your password?" }).click();
  await page.locator("#forgot-email").fill(email);
  await page.getByRole("button", { name: "Send a reset link" }).click();
  await expect(page.getByText("If an account has this address")).toBeVisible();
  await screenshotsAt1440And390(page, "forgot-password");
  const reset = await linkFromOutbox(page, email, /Reset your/);
  await page.goto(reset);
  await page.getByLabel("New password").fill("a new password for this person");
  await page.getByRole("button", { name: "Set password" }).click();
  await expect(page.getByText("Your password is changed")).toBeVisible();
  await signIn(page, email, "a new password for this person");
  await expect(page.getByText(email).first()).toBeVisible();
});
