// Background service: every minute, looks up authorizations that timed out at least 5 minutes ago
// and voids late approvals (lib/processors/reconcile-timed-out-authorizations.ts). Each attempt is
// handled once (it is marked); a failed look-up is tried again on the next round.
import { reconcileTimedOutAuthorizations } from "./reconcile-timed-out-authorizations";

const INTERVAL_MS = 60_000;

const state = globalThis as unknown as { __cpsReconcilePoller?: NodeJS.Timeout };

export async function startReconcilePoller(): Promise<void> {
  if (state.__cpsReconcilePoller) return;
  let running = false;
  const tick = async () => {
    if (running) return;
    running = true;
    try {
      const reconciled = await reconcileTimedOutAuthorizations();
      const voided = reconciled.filter((entry) => entry.outcome === "voided" || entry.outcome === "void_failed");
      for (const entry of voided)
        console.warn(`[processors] late approval at ${entry.processor} behind time-out ${entry.operationId}: ${entry.outcome}`);
    } catch (error) {
      console.warn(`[processors] reconciliation round failed: ${error instanceof Error ? error.message : "error"}`);
    } finally {
      running = false;
    }
  };
  state.__cpsReconcilePoller = setInterval(() => void tick(), INTERVAL_MS);
  state.__cpsReconcilePoller.unref();
}
