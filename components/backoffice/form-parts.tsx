// What the back office's forms end with: the answer to the last submission, the password (and code)
// that confirm a change, and a submit button that says what it does while the action runs.
import Link from "next/link";
import type { ComponentProps, ReactNode } from "react";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { SelectField } from "@/components/ui/field";
import type { ActionState } from "@/lib/backoffice/action-result";
import { ConfirmIdentityFields } from "./confirm-identity-fields";

/**
 * The message of the last submission, as a success or an error; an error that knows where to fix it
 * links there. `quietOnFieldErrors`: an error that names fields is shown at those fields only.
 * `errorTestId`: marks the error's text for tests.
 */
export function FormMessage({ state, quietOnFieldErrors = false, errorTestId }: { state: ActionState<unknown>; quietOnFieldErrors?: boolean; errorTestId?: string }) {
  if (state.status === "success") return <Alert tone="success">{state.message}</Alert>;
  if (state.status !== "error" || (quietOnFieldErrors && state.fieldErrors)) return null;
  return (
    <Alert tone="error">
      <span data-testid={errorTestId}>{state.message}</span>
      {state.link ? (
        <>
          {" "}
          <Link href={state.link.href} className="font-medium underline">
            Go to {state.link.label}
          </Link>
        </>
      ) : null}
    </Alert>
  );
}

/** The submit button: disabled and saying `pendingLabel` while the action runs (`disabled`: also at other times). */
export function SubmitButton({ pending, pendingLabel, disabled = false, children, ...button }: ComponentProps<typeof Button> & { pending: boolean; pendingLabel: string }) {
  return (
    <Button type="submit" disabled={pending || disabled} {...button}>
      {pending ? pendingLabel : children}
    </Button>
  );
}

/** The step-up fields of a change (ConfirmIdentityFields), then its submit button. */
export function ConfirmAndSubmit({
  idPrefix,
  totpEnabled,
  fieldErrors,
  compact,
  pending,
  pendingLabel,
  children,
  ...button
}: ComponentProps<typeof ConfirmIdentityFields> & Omit<ComponentProps<typeof SubmitButton>, "children"> & { children: ReactNode }) {
  return (
    <>
      <ConfirmIdentityFields idPrefix={idPrefix} totpEnabled={totpEnabled} fieldErrors={fieldErrors} compact={compact} />
      <SubmitButton pending={pending} pendingLabel={pendingLabel} {...button}>
        {children}
      </SubmitButton>
    </>
  );
}

/**
 * The end of a settings form: the answer to the last save, then, when the role may change the
 * settings, the step-up fields and the save button.
 */
export function SaveFormEnd({
  state,
  pending,
  canSave,
  idPrefix,
  totpEnabled,
  disabled,
  children,
}: {
  state: ActionState<unknown>;
  pending: boolean;
  canSave: boolean;
  idPrefix: string;
  totpEnabled: boolean;
  /** The save button is disabled at other times too (while the form has errors it knows of). */
  disabled?: boolean;
  children: ReactNode;
}) {
  return (
    <>
      <FormMessage state={state} />
      {canSave ? (
        <ConfirmAndSubmit idPrefix={idPrefix} totpEnabled={totpEnabled} fieldErrors={state.fieldErrors} pending={pending} pendingLabel="Saving…" disabled={disabled}>
          {children}
        </ConfirmAndSubmit>
      ) : null}
    </>
  );
}

/** How long the old key or secret keeps working after a roll: one of the periods offered, in seconds. */
export function OverlapField({
  periods,
  defaultSeconds,
  ...field
}: Omit<ComponentProps<typeof SelectField>, "options" | "defaultValue"> & { periods: { seconds: number; label: string }[]; defaultSeconds: number }) {
  return <SelectField {...field} defaultValue={String(defaultSeconds)} options={periods.map((period) => ({ value: String(period.seconds), label: period.label }))} />;
}
