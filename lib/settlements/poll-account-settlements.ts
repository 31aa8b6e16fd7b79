// The settlements poller's work for one account (lib/jobs/poll-acquirer-settlements.ts): its
// settlements imported and reconciled from its cursor, with the back-off, account check state and
// operator alert of runReportingFeed. A first import reaches back FIRST_READ_DAYS.
import { addDays, todayUtc } from "../disputes/dispute-dates";
import type { ReportingAccessFor } from "../routing/accounts/reporting-access";
import { runReportingFeed, type FeedRun } from "../routing/accounts/run-reporting-feed";
import { importAccountSettlements } from "./import-account-settlements";

export const SETTLEMENTS_FIRST_READ_DAYS = 60;

export async function pollAccountSettlements({
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
    feed: "settlements",
    firstFrom: addDays(todayUtc(now), -SETTLEMENTS_FIRST_READ_DAYS),
    accessFor,
    now,
    importFeed: async (reporting, from) => {
      const imported = await importAccountSettlements({ reporting, periodEndOnOrAfter: from, now });
      return { next: imported.nextPeriodEndOnOrAfter };
    },
  });
}
