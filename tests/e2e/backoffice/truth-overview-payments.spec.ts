// The back office tells the truth (issue 13), in Chromium against the real service: a merchant
// seeded with one payment in each state (authorized, partially captured, captured, partially
// refunded, refunded, voided, payout, timed out, abandoned, declined) and with real and test
// notifications. The overview's figures are computed here from that seed, never read off the UI;
// the states shown follow the operations; a payout is a payout; capture, refund and void ask for
// confirmation and explain refusals; axis labels stay whole at 1440 and 390 px. Screenshots of the
// overview, the payments list and a payment at both widths are kept under test-results/screenshots/.
import { expect, test, type Locator } from "@playwright/test";
import { formatMoney, percent } from "@/components/backoffice/format";
import { screenshotsAt1440And390, signIn, signOut, useServiceDatabase, WIDE_AND_PHONE } from "../../helpers/e2e/backoffice";

test.describe.configure({ mode: "serial" });

const WIDTHS = WIDE_AND_PHONE;
const PASSWORD = "truth-password-1";
const CURRENCY = "DKK";

type Status = "AUTHORIZED" | "CAPTURED" | "REFUNDED" | "VOIDED" | "TIMED_OUT" | "DECLINED";

interface Seed {
  key: string;
  /** The state the back office must show (lib/payments/derive-display-state.ts). */
  state: string;
  label: string;
  status: Status;
  amount: bigint;
  captures?: bigint[];
  refunds?: bigint[];
  payout?: boolean;
  /** A failed authorize operation (the window closed while the payment was under way). */
  attempted?: boolean;
}

const SEEDS: Seed[] = [
  { key: "authorized", state: "authorized", label: "Authorized", status: "AUTHORIZED", amount: 12_500n },
  { key: "partiallyCaptured", state: "partially_captured", label: "Partially captured", status: "CAPTURED", amount: 12_500n, captures: [5_000n] },
  { key: "captured", state: "captured", label: "Captured", status: "CAPTURED", amount: 8_000n, captures: [8_000n] },
  // The example: captured 50 and refunded 10 of 125 is not "refunded".
  { key: "partiallyRefunded", state: "partially_refunded", label: "Partially refunded", status: "REFUNDED", amount: 12_500n, captures: [5_000n], refunds: [1_000n] },
  { key: "refunded", state: "refunded", label: "Refunded", status: "REFUNDED", amount: 3_000n, captures: [3_000n], refunds: [3_000n] },
  { key: "voided", state: "voided", label: "Voided", status: "VOIDED", amount: 2_000n },
  { key: "payout", state: "payout", label: "Payout", status: "CAPTURED", amount: 4_000n, payout: true },
  { key: "timedOut", state: "timed_out", label: "Timed out", status: "TIMED_OUT", amount: 1_500n, attempted: true },
  { key: "abandoned", state: "abandoned", label: "Abandoned", status: "TIMED_OUT", amount: 1_700n },
  { key: "declined", state: "declined", label: "Declined", status: "DECLINED", amount: 900n },
];

/** Real notifications (each counts) and test notifications (none may count as delivery figures). */
const NOTIFICATIONS = [
  { kind: "completion", status: "delivered" },
  { kind: "completion", status: "delivered" },
  { kind: "capture", status: "delivered" },
  { kind: "refund", status: "failed" },
  { kind: "test", status: "failed" },
  { kind: "test", status: "failed" },
  { kind: "test", status: "delivered" },
] as const;

const ids: Record<string, string> = {};
let email = "";
let emptyEmail = "";
let neverEmail = "";

/** The overview's rules, applied to the seed: what the page must say. */
function expectedOverview() {
  const approvedStatuses = ["AUTHORIZED", "CAPTURED", "REFUNDED", "VOIDED"];
  const payments = SEEDS.filter((seed) => !seed.payout);
  const approved = payments.filter((seed) => approvedStatuses.includes(seed.status));
  const decided = payments.filter((seed) => [...approvedStatuses, "DECLINED", "FAILED"].includes(seed.status));
  const payouts = SEEDS.filter((seed) => seed.payout);
  const real = NOTIFICATIONS.filter((entry) => entry.kind !== "test");
  const delivered = real.filter((entry) => entry.status === "delivered").length;
  const failed = real.filter((entry) => entry.status === "failed").length;
  return {
    volume: formatMoney(approved.reduce((sum, seed) => sum + seed.amount, 0n), CURRENCY),
    payments: String(payments.length),
    approvalRate: percent(approved.length, decided.length),
    payouts: formatMoney(-payouts.reduce((sum, seed) => sum + seed.amount, 0n), CURRENCY),
    payoutCount: payouts.length,
    deliveredRate: percent(delivered, delivered + failed),
    delivered,
    failed,
    tests: NOTIFICATIONS.length - real.length,
  };
}

test.beforeAll(async () => {
  await useServiceDatabase();
  const { createTestMerchant, createTestPayment } = await import("@/tests/helpers/merchant-factories");
  const { createUser } = await import("@/lib/users/create-user");
  const { db } = await import("@/lib/db");
  const { newId } = await import("@/lib/ids");
  const suffix = newId().slice(0, 8);

  // No notification address anywhere: the capture below is refused for that reason.
  const { merchantId } = await createTestMerchant({ name: "Truth Shop" });
  email = `truth-${suffix}@example.com`;
  await createUser({ merchantId, email, name: "Truth Owner", password: PASSWORD, role: "OWNER" });
  for (const seed of SEEDS) {
    const { paymentId } = await createTestPayment({
      merchantId,
      status: seed.status,
      amount: seed.amount,
      currency: CURRENCY,
      authorizedAmount: seed.payout || seed.status === "TIMED_OUT" || seed.status === "DECLINED" ? 0n : seed.amount,
      captures: seed.captures,
      refunds: seed.refunds,
      merchantPaymentId: `truth-${seed.key}`,
      reference: `truth-${seed.key}`,
    });
    if (seed.payout) {
      // As lib/payments/payout.ts stores an approved payout: CAPTURED, negative balance, one payout operation.
      await db().payment.update({ where: { id: paymentId }, data: { paymentType: "payout", capturedAmount: 0n, balance: -seed.amount } });
      await db().operation.deleteMany({ where: { paymentId } });
      await db().operation.create({ data: { id: newId(), paymentId, type: "payout", amount: seed.amount, currency: CURRENCY, status: "approved", processor: "clearhaus", completedAt: new Date() } });
    }
    if (seed.attempted) {
      await db().operation.create({ data: { id: newId(), paymentId, type: "authorize", amount: seed.amount, currency: CURRENCY, status: "failed", processor: "clearhaus", errorMessage: "no answer in time" } });
    }
    ids[seed.key] = paymentId;
  }
  await db().notification.createMany({
    data: NOTIFICATIONS.map((entry, index) => ({ id: `truth${suffix}${index}`, merchantId, mode: "test" as const, paymentId: entry.kind === "test" ? null : ids.captured!, kind: entry.kind, url: "https://shop.example/n", body: "{}", status: entry.status })),
  });

  // An account whose only payment is older than the overview's 30 days, in NOK.
  const empty = await createTestMerchant({ name: "Quiet Shop" });
  emptyEmail = `quiet-${suffix}@example.com`;
  await createUser({ merchantId: empty.merchantId, email: emptyEmail, name: "Quiet Owner", password: PASSWORD, role: "OWNER" });
  const { paymentId: old } = await createTestPayment({ merchantId: empty.merchantId, status: "CAPTURED", amount: 1_000n, captures: [1_000n], currency: "NOK" });
  await db().payment.update({ where: { id: old }, data: { createdAt: new Date(Date.now() - 90 * 86_400_000) } });

  // An account that never had a payment: no currency is made up for it.
  const never = await createTestMerchant({ name: "New Shop" });
  neverEmail = `new-${suffix}@example.com`;
  await createUser({ merchantId: never.merchantId, email: neverEmail, name: "New Owner", password: PASSWORD, role: "OWNER" });
  await db().$disconnect();
});

async function box(locator: Locator) {
  const found = await locator.boundingBox();
  expect(found, "element has a box").not.toBeNull();
  return found!;
}

test("overview: the figures are the seed's; payouts apart from approved volume; test notifications are no failures", async ({ page }) => {
  const expected = expectedOverview();
  await signIn(page, email, PASSWORD);
  await expect(page.getByTestId("approved-volume")).toHaveText(expected.volume);
  await expect(page.getByText(`Approved volume (${CURRENCY})`)).toBeVisible();
  await expect(page.getByTestId("payment-count")).toHaveText(expected.payments);
  await expect(page.getByTestId("approval-rate")).toHaveText(expected.approvalRate);
  await expect(page.getByTestId("payouts")).toHaveText(expected.payouts);
  await expect(page.getByText(`${expected.payoutCount} sent to cards`)).toBeVisible();
  await expect(page.getByTestId("notification-success-rate")).toHaveText(expected.deliveredRate);
  await expect(page.getByTestId("notifications-failed")).toHaveText(String(expected.failed));
  await expect(page.getByTestId("notifications-delivered")).toHaveText(String(expected.delivered));
  await expect(page.getByText(`${expected.tests} test notifications not counted`)).toBeVisible();
  await screenshotsAt1440And390(page, "overview");
});

test("overview: axis labels are whole and readable at 1440 and 390 px, and each day's value shows on hover", async ({ page }) => {
  const expected = expectedOverview();
  await signIn(page, email, PASSWORD);
  const today = new Date().toISOString().slice(0, 10);
  for (const size of WIDTHS) {
    await page.setViewportSize(size);
    await page.reload();
    const charts = page.getByTestId("chart");
    await expect(charts).toHaveCount(2);
    for (const chart of await charts.all()) {
      const frame = await box(chart);
      const labels = chart.getByTestId("axis-label");
      expect(await labels.count()).toBeGreaterThan(3);
      for (const label of await labels.all()) {
        await expect(label).toBeVisible();
        const { x, width } = await box(label);
        const text = await label.textContent();
        expect(x, `"${text}" starts inside the page at ${size.width} px`).toBeGreaterThanOrEqual(0);
        expect(x + width, `"${text}" ends inside the page at ${size.width} px`).toBeLessThanOrEqual(size.width);
        expect(x, `"${text}" starts inside its chart`).toBeGreaterThanOrEqual(frame.x - 1);
        expect(x + width, `"${text}" ends inside its chart`).toBeLessThanOrEqual(frame.x + frame.width + 1);
        const fontSize = await label.evaluate((element) => parseFloat(getComputedStyle(element).fontSize));
        expect(fontSize, `"${text}" is readable`).toBeGreaterThanOrEqual(10);
      }
    }
    // The money axis names the merchant's currency; its top label is whole.
    await expect(charts.first().getByTestId("axis-label").first()).toContainText(CURRENCY);

    // Values on hover: today's bar holds all of the seed's approved volume (one processor).
    const day = charts.first().locator(`[data-testid="chart-day"][data-day="${today}"]`);
    await expect(day).toHaveAttribute("aria-label", `${today}: clearhaus ${expected.volume}`);
    // The column is role="img" (its children are presentational), so the tooltip is found by its role attribute.
    const tooltip = day.locator('[role="tooltip"]');
    await expect(tooltip).toBeHidden();
    await day.hover();
    await expect(tooltip).toBeVisible();
    await expect(tooltip).toContainText(`clearhaus ${expected.volume}`);
    const tip = await box(tooltip);
    expect(tip.x).toBeGreaterThanOrEqual(0);
    expect(tip.x + tip.width).toBeLessThanOrEqual(size.width);
    // And on keyboard focus, for people who do not use a mouse.
    await page.mouse.move(0, 0);
    const rateDay = charts.nth(1).locator(`[data-testid="chart-day"][data-day="${today}"]`);
    await rateDay.focus();
    await page.keyboard.press("Shift+Tab");
    await page.keyboard.press("Tab");
    await expect(rateDay.locator('[role="tooltip"]')).toBeVisible();
    await expect(rateDay.locator('[role="tooltip"]')).toContainText(`clearhaus ${expected.approvalRate}`);
  }
});

test("overview: an account quiet for 30 days shows its own currency, a new one none made up", async ({ page }) => {
  await signIn(page, emptyEmail, PASSWORD);
  await expect(page.getByText("Approved volume (NOK)")).toBeVisible();
  await expect(page.getByTestId("approved-volume")).toHaveText(formatMoney(0n, "NOK"));
  await expect(page.getByText(/\bEUR\b/)).toHaveCount(0);
  await signOut(page);
  await signIn(page, neverEmail, PASSWORD);
  await expect(page.getByTestId("approved-volume")).toHaveText("—");
  await expect(page.getByText(/\bEUR\b/)).toHaveCount(0);
});

test("payments list: each payment shows the state its operations say, a payout is negative, the state filter uses the same states", async ({ page }) => {
  await signIn(page, email, PASSWORD);
  await page.goto("/backoffice/payments");
  const rows = page.getByTestId("payment-row");
  await expect(rows).toHaveCount(SEEDS.length);
  for (const seed of SEEDS) {
    const row = rows.filter({ hasText: ids[seed.key]! });
    await expect(row.getByTestId("payment-state"), seed.key).toHaveAttribute("data-state", seed.state);
    await expect(row.getByTestId("payment-state"), seed.key).toHaveText(seed.label);
    await expect(row.getByTestId("payment-amount"), seed.key).toHaveText(formatMoney(seed.payout ? -seed.amount : seed.amount, CURRENCY));
  }
  await screenshotsAt1440And390(page, "payments-list");

  for (const seed of [SEEDS.find((entry) => entry.key === "partiallyRefunded")!, SEEDS.find((entry) => entry.key === "refunded")!, SEEDS.find((entry) => entry.key === "payout")!]) {
    await page.getByLabel("Status").selectOption({ label: seed.label });
    await page.getByRole("button", { name: "Apply" }).click();
    await expect(page).toHaveURL(new RegExp(`status=${seed.state}`));
    await expect(rows).toHaveCount(1);
    await expect(rows.first()).toContainText(ids[seed.key]!);
  }
});

test("payment page: partially refunded says so; a payout is a payout with no capture or refund; on a phone the actions come first", async ({ page }) => {
  await signIn(page, email, PASSWORD);
  await page.goto(`/backoffice/payments/${ids.partiallyRefunded}`);
  await expect(page.getByTestId("payment-state")).toHaveText("Partially refunded");
  await expect(page.locator("dt", { hasText: /^Captured$/ }).locator("..")).toContainText(formatMoney(5_000n, CURRENCY));
  await expect(page.locator("dt", { hasText: /^Refunded$/ }).locator("..")).toContainText(formatMoney(1_000n, CURRENCY));

  await page.goto(`/backoffice/payments/${ids.payout}`);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(`truth-payout · Payout ${formatMoney(-4_000n, CURRENCY)}`);
  await expect(page.getByTestId("payment-state")).toHaveText("Payout");
  await expect(page.getByText("Payout (money sent to the card)")).toBeVisible();
  await expect(page.getByRole("button", { name: /^(Capture|Refund|Void)$/ })).toHaveCount(0);

  await page.goto(`/backoffice/payments/${ids.partiallyCaptured}`);
  await expect(page.getByTestId("payment-state")).toHaveText("Partially captured");
  for (const size of WIDTHS) {
    await page.setViewportSize(size);
    const actions = await box(page.getByTestId("payment-actions"));
    const details = await box(page.getByRole("heading", { name: "Payment", exact: true }));
    if (size.width === 390) expect(actions.y, "actions above the payment's details on a phone").toBeLessThan(details.y);
    else expect(actions.x, "actions in the right-hand column on a wide screen").toBeGreaterThan(details.x + 200);
  }
  await screenshotsAt1440And390(page, "payment-detail");
});

test("capture, refund and void ask for confirmation; refusals are sentences with a link; what was typed stays", async ({ page }) => {
  await signIn(page, email, PASSWORD);
  await page.goto(`/backoffice/payments/${ids.authorized}`);
  const amount = page.getByLabel(`Amount to capture (${CURRENCY})`);

  // A validation error keeps the typed amount.
  await amount.fill("12,50");
  await page.getByRole("button", { name: "Capture", exact: true }).click();
  await page.getByRole("button", { name: "Confirm capture" }).click();
  await expect(page.getByText("Enter an amount such as 12.50, or leave it empty for the full amount")).toBeVisible();
  await expect(amount).toHaveValue("12,50");

  // The confirm step names the amount; Cancel sends nothing.
  await amount.fill("30");
  await page.getByRole("button", { name: "Capture", exact: true }).click();
  const confirm = page.getByRole("group", { name: "Confirm capture" });
  await expect(confirm).toContainText(`Capture 30 ${CURRENCY}?`);
  await page.getByRole("button", { name: "Cancel" }).click();
  await expect(confirm).toHaveCount(0);
  await useServiceDatabase();
  const { db } = await import("@/lib/db");
  expect(await db().operation.count({ where: { paymentId: ids.authorized, type: "capture" } })).toBe(0);

  // Confirmed, it is refused for a reason the merchant can fix: a sentence with a link to the place.
  await page.getByRole("button", { name: "Capture", exact: true }).click();
  await page.getByRole("button", { name: "Confirm capture" }).click();
  const alert = page.getByRole("alert").filter({ hasText: "No notification address is configured" });
  await expect(alert).toHaveText(/^No notification address is configured, so the result could not reach your systems: set one in Settings → Notifications, then try again\./);
  await expect(amount).toHaveValue("30");
  expect(await db().operation.count({ where: { paymentId: ids.authorized, type: "capture" } })).toBe(0);

  // Void asks too, naming what it releases.
  await page.getByRole("button", { name: "Void", exact: true }).click();
  await expect(page.getByRole("group", { name: "Confirm void" })).toContainText(`Void ${formatMoney(12_500n, CURRENCY)}?`);
  await page.getByRole("button", { name: "Cancel" }).click();

  await alert.getByRole("link", { name: "Go to Settings → Notifications" }).click();
  await expect(page).toHaveURL(/\/backoffice\/settings\/notifications$/);

  // A refund of more than is left: the sentence sits next to the amount, which keeps what was typed.
  await page.goto(`/backoffice/payments/${ids.captured}`);
  const refund = page.getByLabel(`Amount to refund (${CURRENCY})`);
  await refund.fill("500");
  await page.getByRole("button", { name: "Refund", exact: true }).click();
  await expect(page.getByRole("group", { name: "Confirm refund" })).toContainText(`Refund 500 ${CURRENCY}?`);
  await page.getByRole("button", { name: "Confirm refund" }).click();
  await expect(page.getByText(`The amount is more than the ${formatMoney(8_000n, CURRENCY)} left to refund.`)).toBeVisible();
  await expect(refund).toHaveValue("500");
  expect(await db().operation.count({ where: { paymentId: ids.captured, type: "refund" } })).toBe(0);
  await db().$disconnect();
});
