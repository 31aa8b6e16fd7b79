// Back office, the Disputes page: "Check for new disputes now" (owners and developers, as the other
// dispute actions; in live mode the owner's setting applies). It runs the disputes poller's own poll
// of the merchant's accounts of the mode shown at once (lib/disputes/check-disputes-now.ts), audited,
// at most once a minute (docs/decisions/0205-check-for-new-disputes-now.md), and says what it found
// per account or why not.
import { assertCan, type Actor } from "../../auth/actor";
import { ACQUIRER_LABELS } from "../../acquirers/names";
import { checkDisputesNow, type DisputeCheckOfAccount } from "../../disputes/check-disputes-now";
import type { ReportingAccessFor } from "../../routing/accounts/reporting-access";
import { UserFacingError } from "../action-result";

const clock = (date: Date | string) => `${new Date(date).toISOString().slice(11, 19)} UTC`;
const plural = (count: number, one: string, many = `${one}s`) => `${count} ${count === 1 ? one : many}`;

export async function checkForNewDisputes({
  actor,
  accessFor,
  now,
}: {
  actor: Actor;
  accessFor?: ReportingAccessFor;
  now?: Date;
}): Promise<{ message: string; accounts: DisputeCheckLine[] }> {
  assertCan(actor, "payments:write");
  const check = await checkDisputesNow({ merchantId: actor.merchantId, mode: actor.mode, userId: actor.userId, accessFor, now });
  if (check.status === "no-accounts")
    throw new UserFacingError(
      `None of your enabled ${actor.mode} acquirer accounts has reporting API credentials, so there is nothing to ask: an owner sets them under Settings → Acquirer accounts.`,
      { link: { href: "/backoffice/settings/acquirer-accounts", label: "Settings → Acquirer accounts" } },
    );
  if (check.status === "too-soon")
    throw new UserFacingError(
      `Disputes were checked at ${clock(check.lastCheckAt)}, less than a minute ago: the acquirer is asked at most once a minute. Check again after ${clock(check.retryAt)}; the poller also reads them every 5 minutes.`,
    );
  return {
    message: disputeCheckSummary(check.accounts),
    accounts: check.accounts.map((account) => ({ accountId: account.accountId, state: account.status, text: disputeCheckLine(account) })),
  };
}

/** What the page shows under the button, per account. */
export interface DisputeCheckLine {
  accountId: string;
  state: DisputeCheckOfAccount["status"];
  text: string;
}

/** "Checked 1 account: 3 new disputes, 0 updated." (and how many accounts failed, each said below it). */
export function disputeCheckSummary(accounts: DisputeCheckOfAccount[]): string {
  const checked = accounts.filter((account) => account.status === "checked");
  const created = checked.reduce((total, account) => total + account.created, 0);
  const updated = checked.reduce((total, account) => total + account.updated, 0);
  const failing = accounts.length - checked.length;
  const found = `${plural(created, "new dispute")}, ${updated} updated`;
  if (failing === 0) return `Checked ${plural(accounts.length, "account")}: ${found}.`;
  if (checked.length === 0) return `Not checked: ${failing === 1 ? "the account's reporting API is failing" : `the reporting API of all ${failing} accounts is failing`}.`;
  return `Checked ${plural(checked.length, "account")}: ${found}; ${plural(failing, "account")} failing.`;
}

/** One account's line under the button: what it found, or that it is failing, why, and when the poller tries again. */
export function disputeCheckLine(account: DisputeCheckOfAccount): string {
  const name = `“${account.name}” (${ACQUIRER_LABELS[account.processor]})`;
  if (account.status === "checked") return `${name}: ${account.created} new, ${account.updated} updated.`;
  const when = account.called
    ? `The poller tries again after ${clock(account.nextAttemptAt)}.`
    : `Not asked now: after ${plural(account.failures, "failure")} in a row the poller waits until ${clock(account.nextAttemptAt)}.`;
  return `${name}: failing: ${account.problem}; its disputes may be missing. ${when} An owner checks its reporting credentials under Settings → Acquirer accounts.`;
}
