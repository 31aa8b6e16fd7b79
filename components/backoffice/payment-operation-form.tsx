"use client";
import type { FollowUpType } from "@/lib/payments/follow-ups/kinds";
import { startTransition, useActionState, useState } from "react";
import { Button } from "@/components/ui/button";
import { SelectField, TextField } from "@/components/ui/field";
import type { ActionState, FormAction } from "@/lib/backoffice/action-result";
import { REFUND_REASON_LABELS, REFUND_REASONS } from "@/lib/backoffice/refund-reasons";
import { FormMessage } from "./form-parts";

type Action = FormAction;

const TITLES = { capture: "Capture", refund: "Refund", void: "Void" } as const;
const CONSEQUENCES = {
  capture: "The money is taken from the cardholder's card.",
  refund: "The money goes back to the cardholder's card. This cannot be undone.",
  void: "The authorization is released and nothing can be captured afterwards. This cannot be undone.",
} as const;

/**
 * One of capture / refund / void with an optional partial amount (in major units). The button opens
 * a confirm step that names the amount; only "Confirm …" sends. The amount is held in state and the
 * form is sent without React's automatic reset, so what was typed stays after a refusal.
 */
export function PaymentOperationForm({
  action,
  paymentId,
  operation,
  currency,
  maxLabel,
  maxMinor,
  variant = "primary",
}: {
  action: Action;
  paymentId: string;
  operation: FollowUpType;
  currency: string;
  maxLabel: string;
  /** The most this operation can take, in minor units (data for tests and assistive text). */
  maxMinor: string;
  variant?: "primary" | "secondary" | "danger";
}) {
  const [state, formAction, pending] = useActionState(action, { status: "idle" });
  const [amount, setAmount] = useState("");
  // One key per operation asked for: a second submit of the same confirmation (a double click, a
  // retry after a lost answer) is answered with the first result; a new key after a success.
  const [idempotencyKey, setIdempotencyKey] = useState(() => crypto.randomUUID());
  const [keyUsedFor, setKeyUsedFor] = useState<ActionState | undefined>(undefined);
  if (state.status === "success" && keyUsedFor !== state) {
    setKeyUsedFor(state);
    setIdempotencyKey(crypto.randomUUID());
  }
  const [confirming, setConfirming] = useState(false);
  const title = TITLES[operation];
  const typed = amount.trim();
  const what = operation === "void" ? maxLabel : typed ? `${typed} ${currency}` : `the full ${maxLabel}`;
  return (
    <form
      className="space-y-2 rounded-md p-3 ring-1 ring-slate-200"
      aria-label={`${title} payment`}
      data-max-minor={maxMinor}
      onSubmit={(event) => {
        event.preventDefault();
        const formData = new FormData(event.currentTarget);
        setConfirming(false);
        startTransition(() => formAction(formData));
      }}
    >
      <input type="hidden" name="paymentId" value={paymentId} />
      <input type="hidden" name="operation" value={operation} />
      <input type="hidden" name="idempotencyKey" value={idempotencyKey} />
      {operation !== "void" ? (
        <TextField
          id={`${operation}-amount`}
          name="amount"
          label={`Amount to ${operation} (${currency})`}
          hint={`Leave empty for ${maxLabel}.`}
          inputMode="decimal"
          placeholder="Full amount"
          value={amount}
          onChange={(event) => {
            setAmount(event.target.value);
            setConfirming(false);
          }}
          error={state.fieldErrors?.amount}
        />
      ) : (
        <p className="text-sm text-slate-600">Releases the authorization of {maxLabel}.</p>
      )}
      {operation === "refund" ? (
        <SelectField
          id="refund-reason"
          name="reason"
          label="Reason"
          hint="Kept with the refund and in the audit log."
          defaultValue=""
          error={state.fieldErrors?.reason}
          options={[{ value: "", label: "No reason given" }, ...REFUND_REASONS.map((value) => ({ value, label: REFUND_REASON_LABELS[value] }))]}
        />
      ) : null}
      {confirming ? (
        <div role="group" aria-label={`Confirm ${operation}`} className="space-y-2 rounded-md bg-slate-50 p-3 ring-1 ring-inset ring-slate-200" data-testid={`confirm-${operation}`}>
          <p className="text-sm font-medium text-slate-900">
            {title} {what}?
          </p>
          <p className="text-xs text-slate-600">{CONSEQUENCES[operation]}</p>
          <div className="flex flex-wrap gap-2">
            <Button type="submit" variant={variant} disabled={pending} autoFocus>
              Confirm {operation}
            </Button>
            <Button type="button" variant="ghost" onClick={() => setConfirming(false)}>
              Cancel
            </Button>
          </div>
        </div>
      ) : (
        <Button type="button" variant={variant} disabled={pending} onClick={() => setConfirming(true)}>
          {pending ? "Sending…" : title}
        </Button>
      )}
      <FormMessage state={state} quietOnFieldErrors />
    </form>
  );
}
