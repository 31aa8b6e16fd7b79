// "Check for new disputes now" on the Disputes page (issue 40; docs/decisions/0205), through the
// back-office use case with a fake reporting API injected: who may press it, what it imports and
// says, the once-a-minute rule per merchant and mode (two presses at once included), that the same
// disputes read again change nothing, and that an account whose reporting API fails is shown as
// failing, and not called again while the poller backs off.
import { beforeEach, describe, expect, it } from "vitest";
import { ForbiddenError, type Actor } from "@/lib/auth/actor";
import { UserFacingError } from "@/lib/backoffice/action-result";
import { checkForNewDisputes } from "@/lib/backoffice/actions/check-for-new-disputes";
import { DISPUTE_CHECK_INTERVAL_MS } from "@/lib/disputes/check-disputes-now";
import { db } from "@/lib/db";
import type { UserRole } from "@/lib/generated/prisma/enums";
import { setReportingCredentials } from "@/lib/routing/accounts/set-reporting-credentials";
import type { ReportingAccessFor } from "@/lib/routing/accounts/reporting-access";
import { createUser } from "@/lib/users/create-user";
import { acquirerDispute, FAKE_CREDENTIALS, type FakeReportingClient, merchantWithFakeReporting } from "@/tests/helpers/fake-reporting";
import { createTestMerchant, createTestPayment } from "@/tests/helpers/merchant-factories";
import { useTestDatabase } from "@/tests/helpers/test-database";

useTestDatabase();

const day = (offsetDays: number) => new Date(Date.now() + offsetDays * 86_400_000).toISOString().slice(0, 10);
/** `intervals` check intervals and a second from now: the rule no longer holds the last check. */
const later = (intervals: number) => new Date(Date.now() + intervals * DISPUTE_CHECK_INTERVAL_MS + 1_000);

let merchantId: string;
let accountId: string;
let fake: FakeReportingClient;
let accessFor: ReportingAccessFor;

async function actorFor(merchant: string, role: UserRole, extra: Partial<Actor> = {}): Promise<Actor> {
  const user = await createUser({ merchantId: merchant, email: `${role.toLowerCase()}-${Math.random().toString(36).slice(2)}@example.com`, name: `${role} person`, password: "long enough password", role });
  return { userId: user.id, merchantId: merchant, mode: "test", role, ...extra };
}

/** A captured payment of the merchant at clearhaus; its capture's acquirer transaction id. */
async function capturedTransaction(): Promise<{ paymentId: string; transactionId: string }> {
  const { paymentId } = await createTestPayment({ merchantId, status: "CAPTURED", amount: 5_000n, captures: [5_000n], processor: "clearhaus" });
  const capture = await db().operation.findFirstOrThrow({ where: { paymentId, type: "capture" } });
  return { paymentId, transactionId: capture.processorReference! };
}

const checkRequests = (merchant: string) => db().auditEntry.findMany({ where: { merchantId: merchant, action: "dispute.check_requested" }, select: { userId: true, details: true } });

async function refusal(work: Promise<unknown>): Promise<UserFacingError> {
  const error = await work.then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(UserFacingError);
  return error as UserFacingError;
}

beforeEach(async () => {
  // A merchant of its own per test: the rule counts per merchant and mode.
  ({ merchantId, accountId, fake, accessFor } = await merchantWithFakeReporting());
});

describe("Check for new disputes now", () => {
  it("refuses a viewer, and a developer in live mode where the owner keeps it to owners: nothing asked of the acquirer, nothing audited", async () => {
    const viewer = await actorFor(merchantId, "VIEWER");
    await expect(checkForNewDisputes({ actor: viewer, accessFor })).rejects.toBeInstanceOf(ForbiddenError);
    const liveDeveloper = await actorFor(merchantId, "DEVELOPER", { mode: "live", liveModeMinRole: "OWNER" });
    await expect(checkForNewDisputes({ actor: liveDeveloper, accessFor })).rejects.toThrow(/Only owners may act in live mode/);
    expect(fake.calls).toEqual([]);
    expect(await checkRequests(merchantId)).toEqual([]);
  });

  it("imports what the acquirer opened at once and says what it found, audited as the user; a second check within the minute is refused with the time and asks nothing; later, the same disputes change nothing and a change is counted as updated", async () => {
    const developer = await actorFor(merchantId, "DEVELOPER");
    const owner = await actorFor(merchantId, "OWNER");
    // Where the merchant's server takes notifications (none is delivered here: the executor does not run).
    await db().merchant.update({ where: { id: merchantId }, data: { testDefaultNotificationUrl: "https://shop.example/notify" } });
    const { paymentId, transactionId } = await capturedTransaction();
    fake.disputesById.set("ch-ours", acquirerDispute({ disputeId: "ch-ours", transactionId }));
    fake.disputesById.set("ch-elsewhere", acquirerDispute({ disputeId: "ch-elsewhere", transactionId: "made-by-another-system", openedOn: day(-30), dueOn: day(-1) }));

    const first = await checkForNewDisputes({ actor: developer, accessFor });
    expect(first.message).toBe("Checked 1 account: 2 new disputes, 0 updated.");
    expect(first.accounts).toEqual([{ accountId, state: "checked", text: expect.stringMatching(/^“.+” \(Clearhaus\): 2 new, 0 updated\.$/) }]);
    const stored = await db().dispute.findMany({ where: { acquirerAccountId: accountId }, orderBy: { acquirerDisputeId: "asc" } });
    expect(stored.map((dispute) => [dispute.acquirerDisputeId, dispute.paymentId])).toEqual([
      ["ch-elsewhere", null],
      ["ch-ours", paymentId],
    ]);
    expect(await checkRequests(merchantId)).toEqual([{ userId: developer.userId, details: { mode: "test", accounts: [accountId] } }]);
    const notifications = await db().notification.count({ where: { merchantId, kind: "dispute", copyOfId: null } });

    // Another user of the merchant, within the minute: refused with the rule, the acquirer not asked.
    fake.clearCalls();
    const tooSoon = await refusal(checkForNewDisputes({ actor: owner, accessFor }));
    expect(tooSoon.message).toMatch(/^Disputes were checked at \d\d:\d\d:\d\d UTC, less than a minute ago: the acquirer is asked at most once a minute\. Check again after \d\d:\d\d:\d\d UTC/);
    expect(fake.calls).toEqual([]);
    expect(await checkRequests(merchantId)).toHaveLength(1);

    // A minute later: the same disputes read again change nothing (no revision, no notification).
    const again = await checkForNewDisputes({ actor: owner, accessFor, now: later(1) });
    expect(again.message).toBe("Checked 1 account: 0 new disputes, 0 updated.");
    expect(fake.callsOf("disputes")).toBe(1);
    expect(await db().dispute.findMany({ where: { acquirerAccountId: accountId }, orderBy: { acquirerDisputeId: "asc" } })).toEqual(stored);
    expect(await db().notification.count({ where: { merchantId, kind: "dispute", copyOfId: null } })).toBe(notifications);

    // Won at the acquirer: one updated, and its notification.
    fake.disputesById.set("ch-ours", { ...fake.disputesById.get("ch-ours")!, status: "won", answers: [] });
    const won = await checkForNewDisputes({ actor: owner, accessFor, now: later(2) });
    expect(won.message).toBe("Checked 1 account: 0 new disputes, 1 updated.");
    expect(await db().dispute.findFirstOrThrow({ where: { acquirerAccountId: accountId, acquirerDisputeId: "ch-ours" }, select: { status: true, revision: true } })).toEqual({ status: "won", revision: 2 });
    expect(await db().notification.count({ where: { merchantId, kind: "dispute", copyOfId: null } })).toBe(notifications + 1);
    expect(await checkRequests(merchantId)).toHaveLength(3);
  });

  it("two presses at once: one reads the acquirer, the other is refused", async () => {
    const [one, two] = [await actorFor(merchantId, "OWNER"), await actorFor(merchantId, "DEVELOPER")];
    const results = await Promise.allSettled([checkForNewDisputes({ actor: one, accessFor }), checkForNewDisputes({ actor: two, accessFor })]);
    expect(results.map((result) => result.status).sort()).toEqual(["fulfilled", "rejected"]);
    const rejected = results.find((result) => result.status === "rejected")!;
    expect(rejected.reason).toBeInstanceOf(UserFacingError);
    expect(fake.callsOf("disputes")).toBe(1);
    expect(await checkRequests(merchantId)).toHaveLength(1);
  });

  it("is counted per merchant: another merchant's check in the same minute goes ahead", async () => {
    await checkForNewDisputes({ actor: await actorFor(merchantId, "OWNER"), accessFor });
    const other = await merchantWithFakeReporting();
    const result = await checkForNewDisputes({ actor: await actorFor(other.merchantId, "OWNER"), accessFor: other.accessFor });
    expect(result.message).toBe("Checked 1 account: 0 new disputes, 0 updated.");
  });

  it("an account whose reporting API fails is shown as failing with the problem, beside one that works; while the poller backs off it is not called again and still shown as failing", async () => {
    const owner = await actorFor(merchantId, "OWNER");
    // A second account of the merchant with credentials the acquirer refuses.
    const failing = await db().acquirerAccount.findFirstOrThrow({ where: { merchantId, mode: "test", id: { not: accountId }, enabled: true } });
    await setReportingCredentials({ merchantId, accountId: failing.id, credentials: { ...FAKE_CREDENTIALS, clientSecret: "not-the-secret-000" }, accessFor });

    const first = await checkForNewDisputes({ actor: owner, accessFor });
    expect(first.message).toBe("Checked 1 account: 0 new disputes, 0 updated; 1 account failing.");
    const line = first.accounts.find((account) => account.accountId === failing.id)!;
    expect(line.state).toBe("failing");
    expect(line.text).toMatch(/: failing: credentials refused \(HTTP 401\): token endpoint answered 401 invalid_client; its disputes may be missing\. The poller tries again after \d\d:\d\d:\d\d UTC\./);
    expect(first.accounts.find((account) => account.accountId === accountId)!.state).toBe("checked");
    expect(await db().acquirerAccount.findUniqueOrThrow({ where: { id: failing.id }, select: { reportingProblem: true, reportingFailures: true } })).toEqual({
      reportingProblem: "credentials refused (HTTP 401): token endpoint answered 401 invalid_client",
      reportingFailures: 1,
    });

    // A minute later the poller still backs off (5 minutes after a first failure): not called, shown as failing.
    const calls = fake.calls.length;
    const second = await checkForNewDisputes({ actor: owner, accessFor, now: later(1) });
    expect(second.accounts.find((account) => account.accountId === failing.id)).toEqual({
      accountId: failing.id,
      state: "failing",
      text: expect.stringMatching(/failing: credentials refused .*; its disputes may be missing\. Not asked now: after 1 failure in a row the poller waits until \d\d:\d\d:\d\d UTC\./),
    });
    // Only the working account was asked.
    expect(fake.calls.slice(calls).every((call) => call.method === "disputes" || call.method === "dispute")).toBe(true);
    expect(fake.calls.length - calls).toBe(1);

    // Every account failing: said so as the summary.
    fake.refuseCredentials = true;
    const none = await checkForNewDisputes({ actor: owner, accessFor, now: later(2) });
    expect(none.message).toBe("Not checked: the reporting API of all 2 accounts is failing.");
  });

  it("without an account with reporting credentials: says so and where to set them; nothing audited", async () => {
    const { merchantId: bare } = await createTestMerchant();
    const refused = await refusal(checkForNewDisputes({ actor: await actorFor(bare, "OWNER"), accessFor }));
    expect(refused.message).toBe(
      "None of your enabled test acquirer accounts has reporting API credentials, so there is nothing to ask: an owner sets them under Settings → Acquirer accounts.",
    );
    expect(refused.link).toEqual({ href: "/backoffice/settings/acquirer-accounts", label: "Settings → Acquirer accounts" });
    expect(await checkRequests(bare)).toEqual([]);
  });
});
