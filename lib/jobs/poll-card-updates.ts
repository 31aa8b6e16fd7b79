// Cron, every minute: reads each enabled acquirer account's card-update feed (account updater) from
// its cursor and sends the life-cycle notifications (lib/payments/advance-card-update-cursor.ts).
// One run per minute across all instances; one step per account, so one feed being down neither
// stops the others nor repeats them on a retry. The accounts are a step only when there are any
// (roundList, decision 0227): a minute without accounts is one call.
import { inngest } from "../inngest/client";
import { cronPayload } from "../inngest/events/cron";
import { advanceCardUpdateCursor, listPolledAccounts } from "../payments/advance-card-update-cursor";
import { log } from "../observability/logger";
import { roundList } from "./round-list";

export const pollCardUpdatesJob = inngest.createFunction(
  { id: "poll-card-updates", retries: 2, triggers: [{ cron: "* * * * *" }] },
  async ({ event, step }) => {
    cronPayload.parse(event.data ?? {});
    const results = [];
    const accounts = await roundList(step, "list-accounts", () => listPolledAccounts());
    for (const accountId of accounts) {
      const result = await step.run(`poll-${accountId}`, () => advanceCardUpdateCursor({ accountId }));
      if (result.error) log("life-cycle").warn(`${result.processor} card-update feed of account ${accountId}: ${result.error}`);
      results.push(result);
    }
    return results;
  },
);
