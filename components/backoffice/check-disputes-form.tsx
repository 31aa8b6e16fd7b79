"use client";
// "Check for new disputes now" on the Disputes page (owners and developers): the disputes poller's
// read of the merchant's accounts at once, at most once a minute; what it found per account, or why
// an account is failing, under the button.
import { Alert } from "@/components/ui/alert";
import type { FormAction } from "@/lib/backoffice/action-result";
import type { DisputeCheckLine } from "@/lib/backoffice/actions/check-for-new-disputes";
import { FormMessage, SubmitButton } from "./form-parts";
import { useKeptFormAction } from "./use-kept-form-action";

export function CheckDisputesForm({ action }: { action: FormAction<DisputeCheckLine[]> }) {
  const { state, pending, form } = useKeptFormAction(action, { resetOnSuccess: false });
  const lines = state.status === "success" ? (state.data ?? []) : [];
  const failing = lines.some((line) => line.state === "failing");
  return (
    <form {...form} className="mb-6 space-y-3" data-testid="dispute-check">
      <div className="flex flex-wrap items-center gap-x-4 gap-y-2">
        <SubmitButton pending={pending} pendingLabel="Checking…" variant="secondary">
          Check for new disputes now
        </SubmitButton>
        <p className="basis-full text-xs text-slate-500 sm:min-w-0 sm:flex-1 sm:basis-auto">The gateway reads your acquirers&apos; disputes every 5 minutes; this reads them now (at most once a minute).</p>
      </div>
      {state.status === "error" ? <FormMessage state={state} errorTestId="dispute-check-result" /> : null}
      {state.status === "success" ? (
        <Alert tone={failing ? "warning" : "success"} title={state.message}>
          <ul className="space-y-1" data-testid="dispute-check-result">
            {lines.map((line) => (
              <li key={line.accountId} data-testid="dispute-check-account" data-state={line.state} className={line.state === "failing" ? "text-red-800" : undefined}>
                {line.text}
              </li>
            ))}
          </ul>
        </Alert>
      ) : null}
    </form>
  );
}
