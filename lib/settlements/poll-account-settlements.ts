// The settlements poller's work for one account (lib/jobs/poll-reporting-feeds.ts): its
// settlements imported and reconciled from its cursor, with the back-off, account check state and
// operator alert of runReportingFeed. A first import reaches back FIRST_READ_DAYS.
import { addDays, todayUtc } from "../disputes/dispute-dates";
import { runReportingFeed, type FeedRun, type PollAccount } from "../routing/accounts/run-reporting-feed";
import { importAccountSettlements } from "./import-account-settlements";

export const SETTLEMENTS_FIRST_READ_DAYS = 60;

export function pollAccountSettlements(account: PollAccount): Promise<FeedRun> {
  const now = account.now ?? new Date();
  return runReportingFeed({
    ...account,
    now,
    feed: "settlements",
    firstFrom: addDays(todayUtc(now), -SETTLEMENTS_FIRST_READ_DAYS),
    importFeed: async (reporting, from) => ({ next: (await importAccountSettlements({ reporting, periodEndOnOrAfter: from, now })).nextPeriodEndOnOrAfter }),
  });
}
