// The disputes poller's work for one account (lib/jobs/poll-reporting-feeds.ts): its disputes
// imported from its cursor, with the back-off, account check state and operator alert of
// runReportingFeed. A first import reaches back FIRST_READ_DAYS: the schemes give a cardholder 120
// days after processing (and some reasons longer) to dispute, so a newly connected account shows
// what is still running. The back office's "Check for new disputes now" runs the same poll
// (lib/backoffice/actions/check-disputes-now.ts), so both are one idempotent import.
import { runReportingFeed, type FeedRun, type PollAccount } from "../routing/accounts/run-reporting-feed";
import { addDays, todayUtc } from "./dispute-dates";
import { importAccountDisputes } from "./import-account-disputes";

export const DISPUTES_FIRST_READ_DAYS = 180;

export function pollAccountDisputes(account: PollAccount): Promise<FeedRun> {
  const now = account.now ?? new Date();
  return runReportingFeed({
    ...account,
    now,
    feed: "disputes",
    firstFrom: addDays(todayUtc(now), -DISPUTES_FIRST_READ_DAYS),
    importFeed: async (reporting, from) => {
      const imported = await importAccountDisputes({ reporting, openedOnOrAfter: from, now });
      return { next: imported.nextOpenedOnOrAfter, counts: { read: imported.read, created: imported.created, updated: imported.updated } };
    },
  });
}
