"use client";
import { useKeptFormAction } from "./use-kept-form-action";
import { Alert } from "@/components/ui/alert";
import { SelectField, TextField } from "@/components/ui/field";
import type { FormAction } from "@/lib/backoffice/action-result";
import type { TestNotificationResult } from "@/lib/backoffice/actions/send-test-notification";
import { SaveFormEnd, SubmitButton } from "./form-parts";

type SaveAction = FormAction;
type TestAction = FormAction<TestNotificationResult>;

interface UrlField {
  name: string;
  label: string;
  hint: string;
  value: string;
}

export function NotificationUrlsForm({
  action,
  fields,
  disabled,
  extraHidden,
  totpEnabled = false,
}: {
  action: SaveAction;
  fields: UrlField[];
  disabled: boolean;
  extraHidden?: Record<string, string>;
  totpEnabled?: boolean;
}) {
  const { state, pending, form } = useKeptFormAction(action);
  return (
    <form {...form} className="space-y-4" noValidate>
      {Object.entries(extraHidden ?? {}).map(([name, value]) => (
        <input key={name} type="hidden" name={name} value={value} />
      ))}
      {fields.map((field) => (
        <TextField
          key={field.name}
          id={field.name}
          label={field.label}
          hint={field.hint}
          type="url"
          placeholder="https://shop.example/notifications"
          defaultValue={field.value}
          error={state.fieldErrors?.[field.name]}
          disabled={disabled}
        />
      ))}
      <SaveFormEnd state={state} pending={pending} canSave={!disabled} idPrefix="notification-urls" totpEnabled={totpEnabled}>
        Save URLs
      </SaveFormEnd>
    </form>
  );
}

export function TestNotificationForm({ action, urls }: { action: TestAction; urls: { label: string; value: string }[] }) {
  const { state, pending, form } = useKeptFormAction(action, { resetOnSuccess: false });
  const result = state.data;
  if (urls.length === 0) return <p className="text-sm text-slate-600">Save a notification URL first.</p>;
  return (
    <div className="space-y-4">
      <form {...form} className="flex flex-col gap-3 sm:flex-row sm:items-end">
        <SelectField
          id="test-url"
          name="url"
          label="Send to"
          className="flex-1"
          options={urls.map((url) => ({ value: url.value, label: `${url.label}: ${url.value}` }))}
          error={state.fieldErrors?.url}
        />
        <SubmitButton pending={pending} pendingLabel="Sending…">
          Send test notification
        </SubmitButton>
      </form>
      {state.status === "error" && !result ? <Alert tone="error">{state.message}</Alert> : null}
      {result ? (
        <div className="space-y-3" data-testid="test-notification-result">
          <Alert tone={result.delivered ? "success" : "error"} title={state.message}>
            {result.statusCode ? `HTTP ${result.statusCode}` : result.error} · {result.durationMs} ms · webhook-id {result.notificationId}
          </Alert>
          <div>
            <p className="text-xs font-medium uppercase tracking-wide text-slate-500">Receiver&apos;s answer</p>
            <pre className="mt-1 max-h-48 overflow-auto rounded bg-slate-900 p-3 text-xs text-slate-100">
              {result.responseBody || "(empty body)"}
            </pre>
          </div>
          <div>
            <p className="text-xs font-medium uppercase tracking-wide text-slate-500">Body sent</p>
            <pre className="mt-1 overflow-auto rounded bg-slate-100 p-3 text-xs">{result.body}</pre>
          </div>
        </div>
      ) : null}
    </div>
  );
}
