"use client";
// Forms of Settings → Acquirer accounts: add an account (its credential fields follow the chosen
// processor), change one (credential fields left empty keep the credentials; they are never shown),
// enable or disable it, and test its connection. Every change asks for the password again.
import { useActionState, useState, type ComponentProps } from "react";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { FieldFrame, SelectField, TextField } from "@/components/ui/field";
import type { FormAction } from "@/lib/backoffice/action-result";
import type { CredentialField } from "@/lib/acquirers/contract";
import type { AcquirerName } from "@/lib/acquirers/names";
import type { ConnectionTest } from "@/lib/routing/accounts/test-acquirer-connection";
import { ConfirmIdentityFields } from "./confirm-identity-fields";
import { FormMessage, SubmitButton } from "./form-parts";

type PlainAction = FormAction;
type TestAction = FormAction<ConnectionTest>;

export interface EditableAccount {
  id: string;
  processor: AcquirerName;
  name: string;
  acquirerMerchantId: string;
  acquirerBins: Partial<Record<"visa" | "mastercard" | "amex", string>>;
  mcc: string;
  merchantName: string;
  country: string;
  descriptor: string;
  currencies: string[];
  anyCurrency: boolean;
  enabled: boolean;
  mode: "test" | "live";
}

function CredentialFields({
  fields,
  prefix,
  errors,
  keep,
}: {
  fields: readonly CredentialField[];
  prefix: string;
  errors?: Record<string, string>;
  keep: boolean;
}) {
  return (
    <fieldset className="grid gap-3 md:grid-cols-2">
      <legend className="mb-1 text-sm font-medium text-slate-800">
        {keep ? "New credentials (leave empty to keep the current ones)" : "Credentials"}
      </legend>
      {fields.map((field) => {
        const id = `${prefix}-credential-${field.key}`;
        const name = `credential.${field.key}`;
        const label = `${field.label}${field.optional ? " (optional)" : ""}`;
        if (field.multiline) {
          return (
            <FieldFrame key={field.key} id={id} label={label} hint={field.hint} error={errors?.[name]} className="md:col-span-2">
              <textarea
                id={id}
                name={name}
                rows={4}
                autoComplete="off"
                spellCheck={false}
                className="block w-full rounded-md border-0 px-3 py-2 font-mono text-xs ring-1 ring-inset ring-slate-300"
              />
            </FieldFrame>
          );
        }
        return (
          <TextField
            key={field.key}
            id={id}
            name={name}
            label={label}
            hint={field.hint}
            error={errors?.[name]}
            type={field.secret ? "password" : "text"}
            autoComplete="off"
            spellCheck={false}
          />
        );
      })}
    </fieldset>
  );
}

/**
 * What the form says of one acquirer on one of its platforms (decision 0193): the value posted as
 * `processor` ("bambora", or "bambora:worldline"), its label and its hints for the merchant id and
 * the descriptor.
 */
export interface AcquirerChoice {
  value: string;
  label: string;
  hints: { acquirerMerchantId: string; descriptor: string };
}

function AccountFields({
  prefix,
  acquirer,
  account,
  errors,
}: {
  prefix: string;
  acquirer: AcquirerChoice;
  account?: EditableAccount;
  errors?: Record<string, string>;
}) {
  const id = (name: string) => `${prefix}-${name}`;
  // A text column of the account: its field's id, value and message follow from its name.
  const text = (name: "name" | "acquirerMerchantId" | "merchantName" | "country" | "mcc" | "descriptor", label: string, more: Partial<ComponentProps<typeof TextField>> = {}) => (
    <TextField id={id(name)} name={name} label={label} defaultValue={account?.[name]} error={errors?.[name]} {...more} />
  );
  return (
    <div className="grid gap-3 md:grid-cols-2">
      {text("name", "Name", { placeholder: `e.g. ${acquirer.label} EUR`, maxLength: 60 })}
      {text("acquirerMerchantId", "Acquirer merchant id", { hint: `As the acquirer and the card schemes know you (${acquirer.hints.acquirerMerchantId}).` })}
      {text("merchantName", "Merchant name (as the schemes see it)", { maxLength: 40 })}
      {text("country", "Country (ISO 3166, e.g. DK)", { maxLength: 2 })}
      {text("mcc", "MCC", { inputMode: "numeric", maxLength: 4 })}
      {text("descriptor", "Statement descriptor", { hint: acquirer.hints.descriptor })}
      <TextField
        id={id("currencies")}
        name="currencies"
        label="Currencies"
        defaultValue={account ? (account.anyCurrency ? "any" : account.currencies.join(", ")) : undefined}
        placeholder="EUR, DKK or any"
        error={errors?.currencies}
      />
      <SelectField
        id={id("mode")}
        name="mode"
        label="Mode"
        defaultValue={account?.mode ?? "test"}
        options={[
          { value: "test", label: "Test" },
          { value: "live", label: "Live" },
        ]}
        error={errors?.mode}
      />
      {(["visa", "mastercard", "amex"] as const).map((scheme) => (
        <TextField
          key={scheme}
          id={id(`bin-${scheme}`)}
          name={`bin.${scheme}`}
          label={`Acquirer BIN, ${scheme === "amex" ? "Amex" : scheme === "visa" ? "Visa" : "Mastercard"} (optional)`}
          defaultValue={account?.acquirerBins[scheme]}
          inputMode="numeric"
          maxLength={11}
          error={errors?.[`bin.${scheme}`]}
        />
      ))}
      {/* Unchecked sends only the hidden "false"; checked sends "on" after it, and the last value wins. */}
      <input type="hidden" name="enabled" value="false" />
      <label className="flex items-center gap-2 text-sm text-slate-800 md:col-span-2">
        <input type="checkbox" name="enabled" defaultChecked={account?.enabled ?? true} className="h-4 w-4 rounded border-slate-300" />
        Enabled: takes new payments (a disabled account still captures, refunds and voids the payments it holds)
      </label>
    </div>
  );
}

export function AddAcquirerAccountForm({
  action,
  acquirers,
  credentialFields,
  totpEnabled,
}: {
  action: PlainAction;
  /** The acquirers to choose from, the first chosen. */
  acquirers: readonly AcquirerChoice[];
  /** Each choice's credential fields, by its value. */
  credentialFields: Record<string, readonly CredentialField[]>;
  totpEnabled: boolean;
}) {
  const [state, formAction, pending] = useActionState(action, { status: "idle" });
  const [processor, setProcessor] = useState<string>(acquirers[0]!.value);
  return (
    <form action={formAction} className="space-y-4" noValidate data-testid="add-acquirer-account">
      <SelectField
        id="add-processor"
        name="processor"
        label="Acquirer"
        value={processor}
        onChange={(event) => setProcessor(event.target.value)}
        options={acquirers.map(({ value, label }) => ({ value, label }))}
        error={state.fieldErrors?.processor}
      />
      <AccountFields prefix="add" acquirer={acquirers.find((choice) => choice.value === processor) ?? acquirers[0]!} errors={state.fieldErrors} />
      <CredentialFields key={processor} fields={credentialFields[processor] ?? []} prefix="add" errors={state.fieldErrors} keep={false} />
      <div className="grid gap-3 md:grid-cols-2">
        <ConfirmIdentityFields idPrefix="add-account" totpEnabled={totpEnabled} fieldErrors={state.fieldErrors} />
      </div>
      <SubmitButton pending={pending} pendingLabel="Adding…">
        Add account
      </SubmitButton>
      <FormMessage state={state} />
    </form>
  );
}

export function EditAcquirerAccountForm({
  action,
  account,
  acquirer,
  credentialFields,
  totpEnabled,
}: {
  action: PlainAction;
  account: EditableAccount;
  acquirer: AcquirerChoice;
  credentialFields: readonly CredentialField[];
  totpEnabled: boolean;
}) {
  const [open, setOpen] = useState(false);
  const [state, formAction, pending] = useActionState(action, { status: "idle" });
  if (!open) {
    return (
      <div className="space-y-2">
        <Button variant="secondary" onClick={() => setOpen(true)} aria-label={`Change account ${account.name}`}>
          Change…
        </Button>
        <FormMessage state={state} />
      </div>
    );
  }
  const prefix = `edit-${account.id}`;
  return (
    <form action={formAction} className="space-y-4" noValidate>
      <input type="hidden" name="accountId" value={account.id} />
      <AccountFields prefix={prefix} acquirer={acquirer} account={account} errors={state.fieldErrors} />
      <CredentialFields fields={credentialFields} prefix={prefix} errors={state.fieldErrors} keep />
      <div className="grid gap-3 md:grid-cols-2">
        <ConfirmIdentityFields idPrefix={prefix} totpEnabled={totpEnabled} fieldErrors={state.fieldErrors} />
      </div>
      <div className="flex gap-2">
        <SubmitButton pending={pending} pendingLabel="Saving…">
          Save
        </SubmitButton>
        <Button variant="secondary" onClick={() => setOpen(false)}>
          Cancel
        </Button>
      </div>
      <FormMessage state={state} />
    </form>
  );
}

export function TestConnectionForm({ action, accountId }: { action: TestAction; accountId: string }) {
  const [state, formAction, pending] = useActionState(action, { status: "idle" });
  const result = state.data;
  return (
    <form action={formAction} className="space-y-2">
      <input type="hidden" name="accountId" value={accountId} />
      <SubmitButton pending={pending} pendingLabel="Testing…" variant="secondary">
        Test connection
      </SubmitButton>
      {state.status === "error" ? <Alert tone="error">{state.message}</Alert> : null}
      {result ? (
        <Alert
          tone={result.ok && result.mismatches.length === 0 ? "success" : result.ok ? "warning" : "error"}
          title={result.ok ? "Connected" : "Not connected"}
        >
          <p data-testid="connection-result">{result.message}</p>
          {Object.keys(result.details ?? {}).length > 0 ? (
            <p className="mt-1 font-mono text-xs">
              {Object.entries(result.details ?? {})
                .map(([key, value]) => `${key}: ${value}`)
                .join(" · ")}
            </p>
          ) : null}
          {result.mismatches.map((line) => (
            <p key={line} className="mt-1">
              Differs: {line}
            </p>
          ))}
        </Alert>
      ) : null}
    </form>
  );
}
