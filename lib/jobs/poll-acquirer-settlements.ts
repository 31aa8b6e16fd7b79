// Cron, hourly: imports and reconciles the settlements of every enabled acquirer account with
// reporting credentials from its cursor (lib/settlements/poll-account-settlements.ts). Settlements
// change at most daily; hourly keeps a new payout's reconciliation within the hour. One run per
// schedule across all instances; one step per account.
import { inngest } from "../inngest/client";
import { cronPayload } from "../inngest/events/cron";
import { listReportingAccounts } from "../routing/accounts/run-reporting-feed";
import { pollAccountSettlements } from "../settlements/poll-account-settlements";

export const pollAcquirerSettlementsJob = inngest.createFunction(
  { id: "poll-acquirer-settlements", retries: 2, triggers: [{ cron: "23 * * * *" }] },
  async ({ event, step }) => {
    cronPayload.parse(event.data ?? {});
    const accounts = await step.run("list-accounts", () => listReportingAccounts());
    const results = [];
    for (const accountId of accounts) results.push(await step.run(`settlements-${accountId}`, () => pollAccountSettlements({ accountId })));
    return results;
  },
);
