// One poll of one account's reporting feed (disputes or settlements, issue 40): from the account's
// cursor, unless a back-off after failures says not yet. A success moves the cursor forward and
// clears the back-off and the account's problem; a failure (refused credentials included) is never
// skipped in silence: it is shown on the account (record-reporting-check.ts), the feed waits
// exponentially longer (5 minutes doubling, at most 6 hours), and at the third failure in a row an
// operator is alerted (an error line `operator.reporting_failing` for the log pipeline, as the other
// operator alerts are, lib/payments/alert-operator.ts). The pollers (lib/jobs/poll-acquirer-*.ts)
// call this once per account, each in its own step.
import { db } from "../../db";
import type { ReportingFeed } from "../../generated/prisma/enums";
import { log } from "../../observability/logger";
import { recordReportingCheck, reportingProblemOf } from "./record-reporting-check";
import { loadAccountReporting, type AccountReporting, type ReportingAccessFor } from "./reporting-access";

export const REPORTING_ALERT_AFTER_FAILURES = 3;
const BACKOFF_BASE_MS = 5 * 60_000;
const BACKOFF_MAX_MS = 6 * 3600_000;

/** The wait after `failures` failed polls in a row: 5, 10, 20 ... minutes, at most 6 hours. */
export function reportingBackoffMs(failures: number): number {
  return Math.min(BACKOFF_BASE_MS * 2 ** Math.max(0, failures - 1), BACKOFF_MAX_MS);
}

/** The enabled accounts with reporting credentials: every one is polled, and one that cannot be reached says so on the account. */
export async function listReportingAccounts(): Promise<string[]> {
  const rows = await db().acquirerAccount.findMany({
    where: { enabled: true, reportingCredentialsSealed: { not: null } },
    select: { id: true },
    orderBy: { createdAt: "asc" },
  });
  return rows.map((row) => row.id);
}

/** What an import read: items listed or read again, and of those the ones new to us and the ones changed. */
export interface FeedCounts {
  read: number;
  created: number;
  updated: number;
}

export type FeedRun =
  | { accountId: string; feed: ReportingFeed; status: "imported"; from: string; next: string; counts?: FeedCounts }
  | { accountId: string; feed: ReportingFeed; status: "waiting"; nextAttemptAt: string }
  | { accountId: string; feed: ReportingFeed; status: "failed"; failures: number; nextAttemptAt: string; problem: string; alerted: boolean };

const day = (date: Date) => date.toISOString().slice(0, 10);
const column = (value: string) => new Date(`${value}T00:00:00.000Z`);

/** Which account a poller's run is for; `accessFor` and `now` are the tests' (a fake client, a clock). */
export interface PollAccount {
  accountId: string;
  accessFor?: ReportingAccessFor;
  now?: Date;
}

export async function runReportingFeed({
  accountId,
  feed,
  firstFrom,
  importFeed,
  accessFor,
  now = new Date(),
}: {
  accountId: string;
  feed: ReportingFeed;
  /** Where an account's first import starts (a calendar day). */
  firstFrom: string;
  /** Imports from `from` (a calendar day) and says where the next import starts (and, where it counts them, what it found). */
  importFeed: (reporting: AccountReporting, from: string) => Promise<{ next: string; counts?: FeedCounts }>;
  accessFor?: ReportingAccessFor;
  now?: Date;
}): Promise<FeedRun> {
  const key = { acquirerAccountId_feed: { acquirerAccountId: accountId, feed } };
  const cursor = await db().reportingCursor.findUnique({ where: key, select: { fromDate: true, nextAttemptAt: true, failures: true } });
  if (cursor?.nextAttemptAt && cursor.nextAttemptAt > now) return { accountId, feed, status: "waiting", nextAttemptAt: cursor.nextAttemptAt.toISOString() };
  const from = cursor ? day(cursor.fromDate) : firstFrom;
  try {
    const reporting = await loadAccountReporting({ accountId, accessFor });
    const { next, counts } = await importFeed(reporting, from);
    // Forward only: a slower overlapping run must not move the cursor back.
    const fromDate = column(next > from ? next : from);
    await db().reportingCursor.upsert({
      where: key,
      create: { acquirerAccountId: accountId, feed, fromDate, lastSuccessAt: now },
      update: { fromDate, nextAttemptAt: null, failures: 0, lastError: null, lastSuccessAt: now },
    });
    await recordReportingCheck({ accountId, problem: null, now });
    return { accountId, feed, status: "imported", from, next: day(fromDate), ...(counts ? { counts } : {}) };
  } catch (error) {
    const problem = reportingProblemOf(error);
    const failures = (cursor?.failures ?? 0) + 1;
    const nextAttemptAt = new Date(now.getTime() + reportingBackoffMs(failures));
    await db().reportingCursor.upsert({
      where: key,
      create: { acquirerAccountId: accountId, feed, fromDate: column(from), failures, nextAttemptAt, lastError: problem.slice(0, 500) },
      update: { failures, nextAttemptAt, lastError: problem.slice(0, 500) },
    });
    await recordReportingCheck({ accountId, problem, now });
    const alerted = failures === REPORTING_ALERT_AFTER_FAILURES;
    const line = { event: alerted ? "operator.reporting_failing" : "reporting.failed", accountId, feed, failures, nextAttemptAt: nextAttemptAt.toISOString() };
    if (alerted)
      log("reporting").error(
        line,
        `operator needed: the ${feed} of acquirer account ${accountId} failed ${failures} times in a row (${problem}); ` +
          `next try ${nextAttemptAt.toISOString()}; check the account's reporting credentials (docs/operations.md)`,
      );
    else log("reporting").warn(line, `${feed} of acquirer account ${accountId}: ${problem}`);
    return { accountId, feed, status: "failed", failures, nextAttemptAt: nextAttemptAt.toISOString(), problem, alerted };
  }
}
