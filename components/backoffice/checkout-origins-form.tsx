"use client";
// The allowed checkout origins of the account (or of one hosted integration): one origin per line.
import { FieldFrame } from "@/components/ui/field";
import type { FormAction } from "@/lib/backoffice/action-result";
import { useKeptFormAction } from "./use-kept-form-action";
import { SaveFormEnd } from "./form-parts";

type SaveAction = FormAction;

export const CHECKOUT_ORIGINS_HINT =
  "One per line, written scheme://host[:port] with no path, e.g. https://shop.example. Only pages on these origins get the hosted fields; empty allows any page.";

/** The textarea alone, for forms that save more than the list (the hosted integration editor). */
export function CheckoutOriginsField({
  id,
  defaultValue,
  error,
  disabled,
  hint = CHECKOUT_ORIGINS_HINT,
}: {
  id: string;
  defaultValue: string;
  error?: string;
  disabled?: boolean;
  hint?: string;
}) {
  return (
    <FieldFrame id={id} label="Allowed checkout origins" hint={hint} error={error}>
      <textarea
        id={id}
        name="allowedCheckoutOrigins"
        rows={3}
        defaultValue={defaultValue}
        disabled={disabled}
        spellCheck={false}
        placeholder="https://shop.example"
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-error` : `${id}-hint`}
        className={`block w-full rounded-md border-0 bg-white px-3 py-2 font-mono text-sm text-slate-900 shadow-sm ring-1 ring-inset placeholder:text-slate-400 focus:ring-2 focus:ring-inset focus:ring-indigo-600 ${error ? "ring-red-500" : "ring-slate-300"}`}
      />
    </FieldFrame>
  );
}

export function CheckoutOriginsForm({
  action,
  origins,
  disabled,
  totpEnabled = false,
}: {
  action: SaveAction;
  origins: string[];
  disabled: boolean;
  totpEnabled?: boolean;
}) {
  const { state, pending, form } = useKeptFormAction(action);
  return (
    <form {...form} className="space-y-4" noValidate>
      <CheckoutOriginsField
        id="merchant-checkout-origins"
        defaultValue={origins.join("\n")}
        error={state.fieldErrors?.allowedCheckoutOrigins}
        disabled={disabled}
      />
      <SaveFormEnd state={state} pending={pending} canSave={!disabled} idPrefix="checkout-origins" totpEnabled={totpEnabled}>
        Save origins
      </SaveFormEnd>
    </form>
  );
}
