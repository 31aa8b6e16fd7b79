// Cron, every 5 minutes: imports the disputes of every enabled acquirer account with reporting
// credentials from its cursor (lib/disputes/poll-account-disputes.ts), so a dispute reaches the
// merchant as a `dispute` notification within one interval. One run per schedule across all
// instances; one step per account, so one account failing (backing off, alerting) neither stops the
// others nor repeats them on a retry.
import { inngest } from "../inngest/client";
import { cronPayload } from "../inngest/events/cron";
import { pollAccountDisputes } from "../disputes/poll-account-disputes";
import { listReportingAccounts } from "../routing/accounts/run-reporting-feed";

export const pollAcquirerDisputesJob = inngest.createFunction(
  { id: "poll-acquirer-disputes", retries: 2, triggers: [{ cron: "*/5 * * * *" }] },
  async ({ event, step }) => {
    cronPayload.parse(event.data ?? {});
    const accounts = await step.run("list-accounts", () => listReportingAccounts());
    const results = [];
    for (const accountId of accounts) results.push(await step.run(`disputes-${accountId}`, () => pollAccountDisputes({ accountId })));
    return results;
  },
);
