// Cron, every minute: looks up authorizations that timed out at least 5 minutes ago and voids late
// approvals (lib/routing/reconcile-timed-out-authorizations.ts). One run per minute across all
// instances; a step per attempt, so a retry after a crash repeats no look-up or void already done
// (and an attempt marked by an earlier run is skipped by the service itself). The list is a step
// only when it has something (roundList, decision 0227): a minute with nothing
// timed out is one call.
import { inngest } from "../inngest/client";
import { cronPayload } from "../inngest/events/cron";
import { findTimedOutAuthorizations, reconcileTimedOutAuthorization } from "../routing/reconcile-timed-out-authorizations";
import { log } from "../observability/logger";
import { roundList } from "./round-list";

export const reconcileTimedOutAuthorizationsJob = inngest.createFunction(
  { id: "reconcile-timed-out-authorizations", retries: 2, triggers: [{ cron: "* * * * *" }] },
  async ({ event, step }) => {
    cronPayload.parse(event.data ?? {});
    const operationIds = await roundList(step, "find-attempts", () => findTimedOutAuthorizations());
    const outcomes = [];
    for (const operationId of operationIds) {
      const result = await step.run(`reconcile-${operationId}`, async () => (await reconcileTimedOutAuthorization({ operationId })) ?? null);
      if (result && (result.outcome === "voided" || result.outcome === "void_failed"))
        log("processors").warn(`late approval at ${result.processor} behind time-out ${result.operationId}: ${result.outcome}`);
      outcomes.push(result);
    }
    return outcomes;
  },
);
