// Settings → Hosted integrations → 3-D Secure in Chromium: the owner sets a hostedid's challenge
// preference (a mandate), it is kept, and new sessions' authentications carry it; a payment's
// 3-D Secure card shows what was asked next to what the issuer did (docs/decisions/0116).
import { expect, test } from "@playwright/test";
import { demoCredentials } from "../../helpers/e2e/demo-service";
import { screenshots, signIn, useServiceDatabase } from "../../helpers/e2e/backoffice";

test.describe.configure({ mode: "serial" });

const demo = () => demoCredentials();

test("the owner sets a hostedid's challenge preference; it is kept and stored", async ({ page }) => {
  await signIn(page, demo().email, demo().password);
  await page.goto("/backoffice/settings/hosted/new");
  await page.getByLabel("Name").fill("Mandated checkout");
  await page.getByLabel("hostedid").fill("mandated");
  const preference = page.getByLabel("Challenge preference");
  // A new integration asks for nothing in particular.
  await expect(preference).toHaveValue("no_preference");
  await preference.selectOption({ label: "Challenge mandated (04)" });
  await page.locator("#hosted-integration-current-password").fill(demo().password);
  await page.getByRole("button", { name: "Save integration" }).click();
  await expect(page).toHaveURL(/\/backoffice\/settings\/hosted\/[0-9a-f]{32}$/);
  await page.reload();
  await expect(page.getByLabel("Challenge preference")).toHaveValue("challenge_mandated");
  await screenshots(page, "hosted-challenge-preference");
  // The list says which integrations ask for something other than no preference.
  await page.goto("/backoffice/settings/hosted");
  await expect(page.getByRole("listitem").filter({ hasText: "Mandated checkout" })).toContainText("3-D Secure: Challenge mandated (04)");

  await useServiceDatabase();
  const { db } = await import("@/lib/db");
  const stored = await db().hostedIntegration.findFirstOrThrow({ where: { merchantId: demo().merchantId, hostedId: "mandated" } });
  expect(stored.threeDsChallengePreference).toBe("challenge_mandated");
  // The audit log says what changed.
  const audit = await db().auditEntry.findFirstOrThrow({ where: { target: stored.id }, orderBy: { createdAt: "desc" } });
  expect(JSON.stringify(audit.details)).toContain("challenge_mandated");
});

test("a payment's 3-D Secure card shows what was asked and what the issuer did", async ({ page }) => {
  await useServiceDatabase();
  const { db } = await import("@/lib/db");
  const { newId } = await import("@/lib/ids");
  const { createTestPayment } = await import("@/tests/helpers/merchant-factories");
  const { paymentId } = await createTestPayment({ merchantId: demo().merchantId, status: "AUTHORIZED" });
  await db().threeDsAuthentication.create({
    data: {
      id: newId(),
      paymentId,
      threeDsServerTransId: crypto.randomUUID(),
      state: "completed",
      transStatus: "Y",
      eci: "05",
      challengeRequired: true,
      challengeIndicator: "04",
      acsChallengeMandated: "N",
      completedAt: new Date(),
    },
  });
  await db().threeDsAuthentication.create({
    data: {
      id: newId(),
      paymentId,
      threeDsServerTransId: crypto.randomUUID(),
      state: "failed",
      transStatus: "N",
      transStatusReason: "01",
      challengeRequired: true,
      challengeIndicator: "02",
      acsChallengeMandated: "Y",
      completedAt: new Date(),
    },
  });
  await signIn(page, demo().email, demo().password);
  await page.goto(`/backoffice/payments/${paymentId}`);
  const card = page.locator("section").filter({ has: page.getByRole("heading", { name: "3-D Secure", exact: true }) });
  await expect(card).toContainText("Asked: challenge mandated (04)");
  await expect(card).toContainText("transStatus Y");
  await expect(card).toContainText("Asked: no challenge requested (02)");
  await expect(card).toContainText("transStatus N (reason 01)");
  await expect(card).toContainText("challenge (mandated by the issuer)");
  await screenshots(page, "payment-3ds-asked");
});
