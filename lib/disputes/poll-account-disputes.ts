// The disputes poller's work for one account (lib/jobs/poll-acquirer-disputes.ts): its disputes
// imported from its cursor, with the back-off, account check state and operator alert of
// runReportingFeed. A first import reaches back FIRST_READ_DAYS: the schemes give a cardholder 120
// days after processing (and some reasons longer) to dispute, so a newly connected account shows
// what is still running.
import { runReportingFeed, type FeedRun } from "../routing/accounts/run-reporting-feed";
import type { ReportingAccessFor } from "../routing/accounts/reporting-access";
import { addDays, todayUtc } from "./dispute-dates";
import { importAccountDisputes } from "./import-account-disputes";

export const DISPUTES_FIRST_READ_DAYS = 180;

export async function pollAccountDisputes({
  accountId,
  accessFor,
  now = new Date(),
}: {
  accountId: string;
  accessFor?: ReportingAccessFor;
  now?: Date;
}): Promise<FeedRun> {
  return runReportingFeed({
    accountId,
    feed: "disputes",
    firstFrom: addDays(todayUtc(now), -DISPUTES_FIRST_READ_DAYS),
    accessFor,
    now,
    importFeed: async (reporting, from) => {
      const imported = await importAccountDisputes({ reporting, openedOnOrAfter: from, now });
      return { next: imported.nextOpenedOnOrAfter };
    },
  });
}
