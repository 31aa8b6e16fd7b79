// Cron: the acquirers' reporting feeds (issue 40), imported for every enabled acquirer account with
// reporting credentials from its cursor. One run per schedule across all instances; one step per
// account, so one account failing (backing off, alerting) neither stops the others nor repeats them
// on a retry. The accounts are a step only when there are any (roundList, decision
// 0227): a round without reporting accounts is one call.
// - disputes, every 5 minutes (lib/disputes/poll-account-disputes.ts): a dispute reaches the
//   merchant as a `dispute` notification within one interval;
// - settlements, hourly (lib/settlements/poll-account-settlements.ts): settlements change at most
//   daily; hourly keeps a new payout's reconciliation within the hour.
import { inngest } from "../inngest/client";
import { cronPayload } from "../inngest/events/cron";
import { pollAccountDisputes } from "../disputes/poll-account-disputes";
import { listReportingAccounts, type FeedRun, type PollAccount } from "../routing/accounts/run-reporting-feed";
import { pollAccountSettlements } from "../settlements/poll-account-settlements";
import { roundList } from "./round-list";

function reportingPollJob(feed: "disputes" | "settlements", cron: string, poll: (account: PollAccount) => Promise<FeedRun>) {
  return inngest.createFunction({ id: `poll-acquirer-${feed}`, retries: 2, triggers: [{ cron }] }, async ({ event, step }) => {
    cronPayload.parse(event.data ?? {});
    const accounts = await roundList(step, "list-accounts", () => listReportingAccounts());
    const results = [];
    for (const accountId of accounts) results.push(await step.run(`${feed}-${accountId}`, () => poll({ accountId })));
    return results;
  });
}

export const pollAcquirerDisputesJob = reportingPollJob("disputes", "*/5 * * * *", pollAccountDisputes);
export const pollAcquirerSettlementsJob = reportingPollJob("settlements", "23 * * * *", pollAccountSettlements);
