// Disputes and Settlements in Chromium (issue 40). A payment is paid in the hosted fields at
// clearhaus and captured and partly refunded through the merchant API (the real flows); the owner
// sets the account's Merchant API credentials on its page (a wrong secret is shown as failing after
// "Test reporting API", the sandbox's own client passes). The disputes are opened at the acquirer:
// the service's in-process Clearhaus Merchant API sandbox, on the fixed port playwright.config.ts
// gives it (CLEARHAUS_REPORTING_SANDBOX_PORT), through its sandbox-only scenario endpoints: a
// chargeback on our capture, one already past its due date on a transaction another system made on
// the account (none of ours), and a retrieval request on our capture closed as won. Then the owner
// presses "Check for new disputes now" on the Disputes page, which runs the poller's own import at
// once (3 new), and a second press within the minute is refused with the rule; the disputes show on
// the list and on the payment's page. The settlement still goes through the import and
// reconciliation code itself with a stand-in acquirer client (no button imports settlements: the
// hourly poller does). Then both lists, the payment's disputes, a dispute's page and a settlement's
// page are read at 1440 and 390 px (no sideways scroll, the key figures visible), a wrong evidence
// type is refused with the rule and nothing stored, the past-due dispute says why it cannot be
// answered, and the CSV export downloads as a formula-safe attachment.
import { expect, test, type APIRequestContext, type Locator, type Page } from "@playwright/test";
import { NEXT_YEAR, approvedPayment } from "../../helpers/e2e/cardholder";
import { demoCredentials, demoMerchantApi, E2E } from "../../helpers/e2e/demo-service";
import { screenshotsAt1440And390, signIn, useServiceDatabase, WIDE_AND_PHONE } from "../../helpers/e2e/backoffice";
import { FAKE_CREDENTIALS, fakeAccess, FakeReportingClient } from "../../helpers/fake-reporting";
import { MERCHANT_API_SANDBOX_CLIENTS } from "@/lib/sandboxes/acquirers/clearhaus/merchant-api/clients";

test.describe.configure({ mode: "serial" });

const day = (offsetDays: number) => new Date(Date.now() + offsetDays * 86_400_000).toISOString().slice(0, 10);
const run = Date.now().toString(36);

/** A sandbox-only scenario of the service's Merchant API sandbox (the acquirer's side); its answer. */
async function atTheAcquirer(request: APIRequestContext, path: string, body: Record<string, unknown>): Promise<{ id: string }> {
  const answer = await request.post(`${E2E.reportingSandboxURL}${path}`, { data: body });
  expect(answer.status(), `${path}: ${await answer.text()}`).toBeLessThan(300);
  return (await answer.json()) as { id: string };
}

/** Reads the page at 1440 and 390 px: nothing scrolls sideways, and each of `visible` shows at both widths. */
async function readAtBothWidths(page: Page, name: string, visible: (page: Page) => Locator[]) {
  const original = page.viewportSize();
  for (const size of WIDE_AND_PHONE) {
    await page.setViewportSize({ width: size.width, height: size.height });
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(overflow, `${name} scrolls sideways at ${size.width} px`).toBeLessThanOrEqual(1);
    for (const locator of visible(page)) {
      await expect(locator, `${name} at ${size.width} px`).toBeVisible();
      // Visible means within the page's width and not scrolled out of sight inside a table's card.
      const shown = await locator.evaluate((element) => {
        const box = element.getBoundingClientRect();
        if (box.left < -1 || box.right > window.innerWidth + 1) return false;
        for (let parent = element.parentElement; parent; parent = parent.parentElement) {
          if (getComputedStyle(parent).overflowX === "visible") continue;
          const frame = parent.getBoundingClientRect();
          if (box.left < frame.left - 1 || box.right > frame.right + 1) return false;
        }
        return true;
      });
      expect(shown, `${name} at ${size.width} px: ${locator.toString()} is cut off sideways`).toBe(true);
    }
  }
  if (original) await page.setViewportSize(original);
  await screenshotsAt1440And390(page, name);
}

test("disputes and settlements: credentials on the account, both lists, a dispute's and a settlement's page at 1440 and 390 px, refusals, the CSV export", async ({ page }) => {
  test.setTimeout(360_000);
  const demo = demoCredentials();
  const order = `dsp${run}`;
  const paymentid = await approvedPayment(
    page,
    { amount: 7300, currency: "DKK", set3ds: "SKIP_3DS", processor: "clearhaus", merchantpaymentid: order },
    { pan: "4111111111111111", month: "12", year: NEXT_YEAR, cvc: "123" },
  );
  const post = demoMerchantApi(page.request);
  expect((await post(`/api/${paymentid}/capture`, { amount: 7300 })).status()).toBe(200);
  expect((await post(`/api/${paymentid}/refund`, { amount: 1000 })).status()).toBe(200);

  await useServiceDatabase();
  const { db } = await import("@/lib/db");
  const approved = async (type: "capture" | "refund") => {
    await expect.poll(async () => (await db().operation.findFirst({ where: { paymentId: paymentid, type, status: "approved" } }))?.id ?? null, { timeout: 30_000 }).not.toBeNull();
    return db().operation.findFirstOrThrow({ where: { paymentId: paymentid, type, status: "approved" } });
  };
  const capture = await approved("capture");
  const refund = await approved("refund");
  expect(capture.processorReference && refund.processorReference).toBeTruthy();
  const account = await db().acquirerAccount.findFirstOrThrow({ where: { id: capture.acquirerAccountId!, merchantId: demo.merchantId } });
  expect(account.processor).toBe("clearhaus");

  // The account's Merchant API credentials, as an owner enters them.
  await signIn(page, demo.email, demo.password);
  await page.goto("/backoffice/settings/acquirer-accounts");
  const card = page.getByTestId("acquirer-account").filter({ hasText: account.acquirerMerchantId });
  const reporting = card.getByTestId("reporting-section");
  await expect(reporting).toContainText("Clearhaus Merchant API");
  const client = MERCHANT_API_SANDBOX_CLIENTS.find((candidate) => candidate.merchantId === account.acquirerMerchantId)!;
  expect(client, `a Merchant API sandbox client for MID ${account.acquirerMerchantId}`).toBeDefined();
  const setCredentials = async (secret: string) => {
    await reporting.getByRole("button", { name: /^(Set|Replace) Clearhaus Merchant API credentials$/ }).click();
    const form = reporting.getByTestId("reporting-credentials-form");
    await form.getByLabel("Merchant API client id").fill(client.clientId);
    await form.getByLabel("Merchant API client secret").fill(secret);
    await form.getByLabel("Your password").fill(demo.password);
    await form.getByRole("button", { name: "Save reporting credentials" }).click();
    await expect(reporting.getByText(/Clearhaus Merchant API credentials saved \(fingerprint [0-9a-f]{16}\)/)).toBeVisible();
  };
  await setCredentials("not-the-secret-0000");
  await reporting.getByRole("button", { name: "Test reporting API" }).click();
  await expect(reporting.getByText("Reporting API not connected")).toBeVisible({ timeout: 20_000 });
  await expect(reporting.getByTestId("reporting-check")).toHaveAttribute("data-state", "failing");
  // The test, and the service's pollers (the new credentials are polled at once), each count a failure.
  await expect(reporting.getByTestId("reporting-check")).toContainText(/Failing: \d+ failed calls? in a row, the last .* UTC: .*refused/);
  await setCredentials(client.clientSecret);
  await reporting.getByRole("button", { name: "Test reporting API" }).click();
  await expect(reporting.getByText("Reporting API connected")).toBeVisible({ timeout: 20_000 });
  await expect(reporting.getByTestId("reporting-check")).toHaveAttribute("data-state", "ok");
  expect(await page.content()).not.toContain(client.clientSecret);
  // An acquirer without a reporting API says so on its account.
  await expect(page.getByTestId("acquirer-account").filter({ hasText: "Finaro" }).getByTestId("reporting-section")).toContainText("Finaro publishes no dispute or settlement API");

  // A settlement through the import and the reconciliation: our capture, our refund at another
  // amount, and a transaction unknown to us; the payout plus the reserve equals the net.
  const fake = new FakeReportingClient();
  const access = fakeAccess(fake)("clearhaus", "test")!;
  const settlementKey = `stl-${run}`;
  fake.settlementsById.set(settlementKey, {
    settlement: {
      settlementId: settlementKey,
      settled: true,
      currency: "DKK",
      periodStart: day(-7),
      periodEnd: day(-1),
      payout: { amount: 6_000n, date: day(0), reference: `PAYOUT-${run}` },
      reserve: { amount: 512n },
      summary: { sales: 7_800n, credits: 0n, refunds: -1_200n, chargebacks: 0n, fees: -88n, otherPostings: 0n, net: 6_512n },
      fees: { interchange: -55n, scheme: -33n },
      otherPostings: [],
    },
    lines: [
      { transactionId: capture.processorReference!, type: "capture", amount: 7_300n, currency: "DKK", processedAt: capture.completedAt!, settled: { gross: 7_300n, fees: -80n, net: 7_220n, currency: "DKK" } },
      { transactionId: refund.processorReference!, type: "refund", amount: -1_200n, currency: "DKK", processedAt: refund.completedAt! },
      { transactionId: `=unknown-${run}`, type: "capture", amount: 500n, currency: "DKK", processedAt: new Date(), reference: "+cmd" },
    ],
  });
  const { importAccountSettlements } = await import("@/lib/settlements/import-account-settlements");
  await importAccountSettlements({
    reporting: { ...access, account: { id: account.id, merchantId: demo.merchantId, mode: "test", processor: "clearhaus" }, call: { credentials: FAKE_CREDENTIALS } },
    periodEndOnOrAfter: day(-30),
  });
  const settlement = await db().settlement.findFirstOrThrow({ where: { acquirerAccountId: account.id, acquirerSettlementId: settlementKey } });
  expect(settlement).toMatchObject({ matchedLines: 1, mismatchedLines: 1, unknownLines: 1, payoutDifference: 0n });

  // The Disputes page before the acquirer opens anything: what is listed now.
  await page.getByRole("link", { name: "Disputes" }).first().click();
  await expect(page).toHaveURL(/\/backoffice\/disputes$/);
  await expect(page.getByRole("heading", { name: "Disputes", exact: true, level: 1 })).toBeVisible();
  const rows = page.getByTestId("dispute-row");
  const listedBefore = await rows.count();

  // The service's own disputes poller runs every 5 minutes (UTC), within seconds of each boundary:
  // were it to run between the disputes opening and the press below, the press would find them
  // already imported. So they open well clear of a boundary.
  const sinceBoundary = Date.now() % 300_000;
  if (sinceBoundary > 270_000 || sinceBoundary < 30_000) await page.waitForTimeout((330_000 - sinceBoundary) % 300_000);

  // At the acquirer: a chargeback on our capture, due in 12 days; a transaction another system made
  // on the account, and a chargeback on it whose due date passed yesterday; a retrieval request on
  // our capture, closed as won.
  const acquirer = page.request;
  const opened = await atTheAcquirer(acquirer, "/sandbox/disputes", {
    transaction_id: capture.processorReference,
    reason: "fraud",
    reason_code: "4837",
    opened_at: day(-2),
    due_at: day(12),
  });
  const elsewhere = await atTheAcquirer(acquirer, "/sandbox/transactions", { merchant_id: account.acquirerMerchantId, amount: 2500, currency: "DKK" });
  const pastDue = await atTheAcquirer(acquirer, "/sandbox/disputes", {
    transaction_id: elsewhere.id,
    reason: "product_not_provided",
    reason_code: "13.1",
    opened_at: day(-30),
    due_at: day(-1),
  });
  const retrieval = await atTheAcquirer(acquirer, "/sandbox/disputes", {
    transaction_id: capture.processorReference,
    type: "retrieval_request",
    reason: "general",
    reason_code: "4808",
    amount: 1200,
  });
  await atTheAcquirer(acquirer, `/sandbox/disputes/${retrieval.id}/close`, { outcome: "won" });

  // "Check for new disputes now": the poller's import at once, and what it found.
  const check = page.getByTestId("dispute-check");
  await check.getByRole("button", { name: "Check for new disputes now" }).click();
  await expect(check.getByRole("status")).toContainText("Checked 1 account: 3 new disputes, 0 updated.", { timeout: 30_000 });
  await expect(check.getByTestId("dispute-check-account")).toHaveAttribute("data-state", "checked");
  await expect(check.getByTestId("dispute-check-account")).toHaveText(`“${account.name}” (Clearhaus): 3 new, 0 updated.`);
  await expect(rows).toHaveCount(listedBefore + 3);
  const stored = (acquirerDisputeId: string) => db().dispute.findFirstOrThrow({ where: { acquirerAccountId: account.id, acquirerDisputeId } });
  const openId = (await stored(opened.id)).id;
  const pastId = (await stored(pastDue.id)).id;
  // A second press within the minute: refused with the rule, and the acquirer not asked again.
  await check.getByRole("button", { name: "Check for new disputes now" }).click();
  await expect(check.getByRole("alert")).toContainText(/Disputes were checked at \d\d:\d\d:\d\d UTC, less than a minute ago: the acquirer is asked at most once a minute\. Check again after \d\d:\d\d:\d\d UTC/);
  expect(await db().auditEntry.count({ where: { merchantId: demo.merchantId, action: "dispute.check_requested" } })).toBe(1);

  // The Disputes list: the open ones first (the past-due one, then the one due in 12 days), the won
  // one after them; key figures at both widths.
  const ours = rows.filter({ hasText: "73.00 DKK" }).filter({ hasText: "Open: to answer" });
  await readAtBothWidths(page, "disputes-list", () => [
    ours.getByText("73.00 DKK"),
    ours.getByText(day(12)),
    ours.getByText("12 days left"),
    ours.getByRole("link", { name: "Chargeback · 4837" }),
    ours.getByTestId("dispute-status"),
    rows.filter({ hasText: "25.00 DKK" }).getByText("past due"),
    check.getByRole("button", { name: "Check for new disputes now" }),
  ]);
  const statuses = await rows.getByTestId("dispute-status").evaluateAll((elements) => elements.map((element) => element.getAttribute("data-status")));
  expect(statuses.indexOf("won")).toBeGreaterThan(statuses.lastIndexOf("open"));
  await page.goto("/backoffice/disputes?kind=retrieval-request");
  await expect(page.getByTestId("dispute-row")).toHaveCount(await page.getByTestId("dispute-row").filter({ hasText: "Retrieval request" }).count());
  await expect(page.getByTestId("dispute-row").filter({ hasText: "12.00 DKK" })).toHaveCount(1);

  // A payment's page lists its disputes; a dispute's page shows the facts and the answers.
  await page.goto(`/backoffice/payments/${paymentid}`);
  await expect(page.getByTestId("payment-dispute")).toHaveCount(2);
  await readAtBothWidths(page, "payment-disputes", (current) => [
    current.getByTestId("payment-disputes").getByRole("link", { name: "Chargeback · 4837" }),
    current.getByTestId("payment-disputes").getByRole("link", { name: "Retrieval request · 4808" }),
    current.getByTestId("payment-dispute").filter({ hasText: "73.00 DKK" }).getByText(`due ${day(12)}`, { exact: false }),
  ]);
  await page.getByTestId("payment-disputes").getByRole("link", { name: "Chargeback · 4837" }).click();
  await expect(page).toHaveURL(new RegExp(`/backoffice/disputes/${openId}$`));
  await readAtBothWidths(page, "dispute-detail", (current) => [
    current.getByTestId("dispute-reason-code"),
    current.getByTestId("dispute-detail-amount"),
    current.getByTestId("dispute-payment-link"),
    current.getByText("12 days left"),
    current.getByLabel("Evidence files"),
    current.getByRole("button", { name: "Refute…" }),
  ]);
  await expect(page.getByTestId("dispute-payment-link")).toContainText(order);
  // Evidence of a type the acquirer does not take: refused with the rule, nothing stored.
  await page.getByLabel("Evidence files").setInputFiles({ name: "notes.txt", mimeType: "text/plain", buffer: Buffer.from("not a pdf") });
  await page.getByRole("button", { name: "Upload evidence" }).click();
  await expect(page.getByText("notes.txt: type text/plain is not accepted by Clearhaus Merchant API (accepted: application/pdf).")).toBeVisible();
  await expect(page.getByText("No evidence sent yet.")).toBeVisible();
  expect(await db().disputeEvidence.count({ where: { disputeId: openId } })).toBe(0);
  expect(await db().auditEntry.count({ where: { target: openId } })).toBe(0);

  // Past its due date: no form, and the reason.
  await page.goto(`/backoffice/disputes/${pastId}`);
  await expect(page.getByTestId("dispute-refusal")).toHaveText(`Its due date ${day(-1)} has passed: the acquirer takes no answer to it any more.`);
  await expect(page.getByRole("button", { name: "Upload evidence" })).toHaveCount(0);
  await expect(page.getByText(`None of ours: the acquirer's transaction ${elsewhere.id}`)).toBeVisible();

  // Settlements: the list and the settlement's page.
  await page.getByRole("link", { name: "Settlements" }).first().click();
  await expect(page).toHaveURL(/\/backoffice\/settlements$/);
  await expect(page.getByRole("heading", { name: "Settlements", exact: true, level: 1 })).toBeVisible();
  const row = page.getByTestId("settlement-row").filter({ hasText: `${day(-7)} – ${day(-1)}` });
  // The counts show once per width (a column on wide screens, under the payout on a phone).
  const counts = (text: string) => row.getByText(text).filter({ visible: true });
  await readAtBothWidths(page, "settlements-list", () => [row.getByText("60.00 DKK"), row.getByRole("link", { name: `${day(-7)} – ${day(-1)}` }), counts("1 matched"), counts("1 mismatch"), counts("1 unknown")]);
  await row.getByRole("link", { name: `${day(-7)} – ${day(-1)}` }).click();
  await expect(page.getByRole("heading", { name: `Settlement ${day(-7)} – ${day(-1)}` })).toBeVisible();
  await readAtBothWidths(page, "settlement-detail", (current) => [
    current.getByTestId("settlement-payout-amount"),
    current.getByTestId("settlement-net"),
    current.getByTestId("payout-difference"),
    current.getByTestId("fees-by-kind").getByText("interchange"),
    current.getByTestId("settlement-exceptions").getByText("Amount mismatch").first(),
    current.getByTestId("settlement-exceptions").getByText("Unknown to us").first(),
  ]);
  await expect(page.getByTestId("settlement-payout-amount")).toHaveText("60.00 DKK");
  await expect(page.getByTestId("settlement-net")).toHaveText("65.12 DKK");
  await expect(page.getByTestId("payout-difference")).toHaveAttribute("data-difference", "0");
  await expect(page.getByTestId("fees-by-kind")).toContainText("-0.55 DKK");
  await expect(page.getByTestId("settlement-line").filter({ hasText: "Matched" }).getByRole("link", { name: order })).toHaveCount(1);

  // The CSV export: an attachment of text/csv, one row per line, the acquirer's text defused.
  const csv = await page.request.get(`/backoffice/settlements/${settlement.id}/export`);
  expect(csv.status()).toBe(200);
  expect(csv.headers()["content-type"]).toBe("text/csv; charset=utf-8");
  expect(csv.headers()["content-disposition"]).toBe(`attachment; filename="settlement-test-${day(-7)}-${day(-1)}-${settlement.id}.csv"`);
  const lines = (await csv.text()).trimEnd().split("\r\n");
  expect(lines[0]).toMatch(/^settlementid,acquirersettlementid,transactionid,/);
  expect(lines).toHaveLength(4);
  expect(lines.find((line) => line.includes("unknown-"))).toContain(`"'=unknown-${run}"`);
  expect(lines.find((line) => line.includes("unknown-"))!.endsWith(`"'+cmd"`)).toBe(true);
  // A settlement that is not the merchant's: not found.
  expect((await page.request.get(`/backoffice/settlements/nosuchsettlement/export`)).status()).toBe(404);
  await db().$disconnect();
});
