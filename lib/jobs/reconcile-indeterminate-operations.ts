// Every minute: captures, refunds, voids and payouts whose acquirer answer is unknown are looked up
// and settled, or left for an operator (lib/payments/reconcile-indeterminate-operations.ts). One
// step per operation, so a crash mid-round repeats no look-up that was already recorded. The list
// is a step only when it has something (roundList, decision 0227): a round that
// finds nothing is one call of the function and no step record.
import { inngest } from "../inngest/client";
import { findDueIndeterminateOperations, reconcileIndeterminateOperations } from "../payments/reconcile-indeterminate-operations";
import { roundList } from "./round-list";

export const reconcileIndeterminateOperationsJob = inngest.createFunction(
  { id: "reconcile-indeterminate-operations", retries: 2, concurrency: { limit: 1 }, triggers: [{ cron: "* * * * *" }] },
  async ({ step }) => {
    const due = await roundList(step, "find-due", async () => (await findDueIndeterminateOperations()).map((operation) => operation.id));
    const results = [];
    for (const operationId of due) {
      results.push(await step.run(`settle-${operationId}`, () => reconcileIndeterminateOperations({ only: [operationId], olderThanMs: 0 })));
    }
    return { settled: results.flat() };
  },
);
