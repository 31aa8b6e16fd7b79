"use client";
// Editor of one hosted integration: name, hostedid, its notification URLs, its allowed checkout
// origins (replacing the account's list when not empty) and the field styling,
// with a live preview of the real hosted fields (their own page, rendered with the styling as it
// is typed). The styling is checked in the browser with the same zod schema the server uses.
import { useRouter } from "next/navigation";
import { useEffect, useMemo, useState, useSyncExternalStore, type ReactNode } from "react";
import { FieldFrame, SelectField, TextField } from "@/components/ui/field";
import { CheckoutOriginsField } from "@/components/backoffice/checkout-origins-form";
import type { FormAction } from "@/lib/backoffice/action-result";
import { NOTIFICATION_URL_FIELDS, NOTIFICATION_URL_LABELS } from "@/lib/backoffice/notification-url-fields";
import { DEFAULT_FIELD_COLOURS, hostedStylingSchema, type HostedStyling } from "@/lib/validation/hosted-styling";
import { CHALLENGE_PREFERENCE_LABELS, CHALLENGE_PREFERENCES, type ChallengePreference } from "@/lib/validation/challenge-preference";
import { frameHeights } from "@/lib/cardholder/field-frame-height";
import { useKeptFormAction } from "./use-kept-form-action";
import { SaveFormEnd } from "./form-parts";

type Action = FormAction<{ id: string }>;

const TEXT_PROPERTIES = [
  { key: "fontFamily", label: "Font family", placeholder: "system-ui, sans-serif" },
  { key: "fontSize", label: "Font size", placeholder: "16px" },
  { key: "letterSpacing", label: "Letter spacing", placeholder: "0" },
  { key: "height", label: "Field height", placeholder: "44px" },
  { key: "padding", label: "Padding", placeholder: "12px" },
  { key: "borderRadius", label: "Corner radius", placeholder: "6px" },
] as const;

const COLOR_PROPERTIES = [
  { key: "color", label: "Text colour" },
  { key: "backgroundColor", label: "Background" },
  { key: "placeholderColor", label: "Placeholder colour" },
  { key: "borderColor", label: "Border colour" },
  { key: "focusColor", label: "Focus colour" },
  { key: "errorColor", label: "Error colour" },
  { key: "validColor", label: "Valid colour" },
] as const;

/**
 * What the colour picker shows: the value typed when it is #rrggbb, else the colour the fields really
 * use (its default; the text colour for "valid", white for a transparent background on a white page).
 */
function swatch(value: string | undefined, key: (typeof COLOR_PROPERTIES)[number]["key"]): string {
  if (/^#[0-9a-fA-F]{6}$/.test(value ?? "")) return value!;
  const fallback: string = DEFAULT_FIELD_COLOURS[key];
  if (fallback === "inherit") return DEFAULT_FIELD_COLOURS.color;
  if (fallback === "transparent") return "#ffffff";
  return fallback;
}

const PLACEHOLDERS = [
  { key: "pan", label: "Card number placeholder" },
  { key: "expmonth", label: "Expiry month placeholder" },
  { key: "expyear", label: "Expiry year placeholder" },
  { key: "securitycode", label: "Security code placeholder" },
] as const;

type Draft = Record<string, string>;

function toDraft(styling: HostedStyling): Draft {
  const draft: Draft = {};
  for (const { key } of [...TEXT_PROPERTIES, ...COLOR_PROPERTIES]) {
    const value = styling[key];
    if (value !== undefined) draft[key] = String(value);
  }
  if (styling.fontWeight) draft.fontWeight = String(styling.fontWeight);
  for (const { key } of PLACEHOLDERS) {
    const value = styling.placeholders?.[key];
    if (value !== undefined) draft[`placeholders.${key}`] = value;
  }
  return draft;
}

/** The draft as a styling object (empty fields left out); unknown parts such as fonts are kept. */
function fromDraft(draft: Draft, base: HostedStyling): Record<string, unknown> {
  const styling: Record<string, unknown> = base.fonts ? { fonts: base.fonts } : {};
  const placeholders: Record<string, string> = {};
  for (const [key, value] of Object.entries(draft)) {
    if (value.trim() === "") continue;
    if (key.startsWith("placeholders.")) placeholders[key.slice(13)] = value;
    else if (key === "fontWeight") styling.fontWeight = Number(value);
    else styling[key] = value.trim();
  }
  if (Object.keys(placeholders).length > 0) styling.placeholders = placeholders;
  return styling;
}

function useDebounced<T>(value: T, delayMs: number): T {
  const [debounced, setDebounced] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setDebounced(value), delayMs);
    return () => clearTimeout(timer);
  }, [value, delayMs]);
  return debounced;
}

export interface HostedIntegrationValues {
  id?: string;
  hostedId: string;
  name: string;
  defaultNotificationUrl: string;
  completionNotificationUrl: string;
  lifecycleNotificationUrl: string;
  /** One origin per line. */
  allowedCheckoutOrigins: string;
  threeDsChallengePreference: ChallengePreference;
  styling: HostedStyling;
}

export function HostedIntegrationEditor({
  action,
  initial,
  readOnly,
  totpEnabled = false,
  mode,
}: {
  action: Action;
  initial: HostedIntegrationValues;
  readOnly: boolean;
  totpEnabled?: boolean;
  /** The mode shown: its notification addresses are edited (the rest serves both modes). */
  mode: "test" | "live";
}) {
  const { state, pending, form } = useKeptFormAction(action, { resetOnSuccess: false });
  const router = useRouter();
  const createdId = !initial.id && state.status === "success" ? state.data?.id : undefined;
  useEffect(() => {
    if (createdId) router.replace(`/backoffice/settings/hosted/${createdId}`);
  }, [createdId, router]);
  const [draft, setDraft] = useState<Draft>(() => toDraft(initial.styling));
  const styling = useMemo(() => fromDraft(draft, initial.styling), [draft, initial.styling]);
  const check = hostedStylingSchema.safeParse(styling);
  const clientErrors: Record<string, string> = {};
  if (!check.success) for (const issue of check.error.issues) clientErrors[issue.path.join(".")] ??= issue.message;
  const stylingJson = JSON.stringify(styling);
  const previewJson = useDebounced(check.success ? stylingJson : null, 250);
  const [lastGood, setLastGood] = useState(stylingJson);
  useEffect(() => {
    // eslint-disable-next-line react-hooks/set-state-in-effect -- keeps the last valid preview while the draft is invalid
    if (previewJson) setLastGood(previewJson);
  }, [previewJson]);
  const errorFor = (key: string) => clientErrors[key] ?? state.fieldErrors?.[`styling.${key}`];
  const set = (key: string) => (event: { target: { value: string } }) => setDraft((current) => ({ ...current, [key]: event.target.value }));
  // A styling field edits the draft only (no name): the styling is sent as one JSON field.
  const draftField = (key: string, id: string, label: string, placeholder?: string) => (
    <TextField key={key} id={id} name="" label={label} placeholder={placeholder} value={draft[key] ?? ""} onChange={set(key)} error={errorFor(key)} />
  );

  return (
    <form {...form} className="grid gap-6 xl:grid-cols-5" noValidate>
      <input type="hidden" name="id" value={initial.id ?? ""} />
      <input type="hidden" name="mode" value={mode} />
      <input type="hidden" name="styling" value={stylingJson} />
      <div className="space-y-6 xl:col-span-3">
        <EditorSection title="Integration" disabled={readOnly}>
          <div className="grid gap-4 sm:grid-cols-2">
            <TextField id="name" label="Name" defaultValue={initial.name} error={state.fieldErrors?.name} />
            <TextField id="hostedId" label="hostedid" hint="Sent as hostedid in initdynamic." defaultValue={initial.hostedId} error={state.fieldErrors?.hostedId} />
          </div>
          <h3 className="pt-2 text-sm font-semibold">Notification URLs ({mode} mode)</h3>
          <p className="text-xs text-slate-500">
            For {mode} payments (switch modes to edit the other mode&apos;s). Empty fields fall back to the account&apos;s notification URLs.
          </p>
          {NOTIFICATION_URL_FIELDS.map((name) => (
            <TextField key={name} id={name} label={NOTIFICATION_URL_LABELS[name].label} type="url" defaultValue={initial[name]} error={state.fieldErrors?.[name]} />
          ))}
          <h3 className="pt-2 text-sm font-semibold">Checkout pages</h3>
          <CheckoutOriginsField
            id="allowedCheckoutOrigins"
            defaultValue={initial.allowedCheckoutOrigins}
            error={state.fieldErrors?.allowedCheckoutOrigins}
            hint="One per line, scheme://host[:port] with no path. When set, only these pages get this hostedid's fields, instead of the account's list (Settings → Hosted integrations)."
          />
          <h3 className="pt-2 text-sm font-semibold">3-D Secure</h3>
          <SelectField
            id="threeDsChallengePreference"
            label="Challenge preference"
            hint="Sent to the issuer in every authentication of this hostedid (threeDSRequestorChallengeInd). The issuer decides; a mandate asks for a challenge even where it would let the payment through without one."
            defaultValue={initial.threeDsChallengePreference}
            error={state.fieldErrors?.threeDsChallengePreference}
            options={CHALLENGE_PREFERENCES.map((value) => ({ value, label: CHALLENGE_PREFERENCE_LABELS[value] }))}
          />
        </EditorSection>

        <EditorSection title="Field styling" disabled={readOnly}>
          <div className="grid gap-4 sm:grid-cols-2">
            {TEXT_PROPERTIES.map((property) => draftField(property.key, `styling-${property.key}`, property.label, property.placeholder))}
            <FieldFrame id="styling-fontWeight" label="Font weight" error={errorFor("fontWeight")}>
              <select
                id="styling-fontWeight"
                value={draft.fontWeight ?? ""}
                onChange={set("fontWeight")}
                className="block w-full rounded-md border-0 bg-white px-3 py-2 text-sm shadow-sm ring-1 ring-inset ring-slate-300 focus:ring-2 focus:ring-indigo-600"
              >
                <option value="">Default</option>
                {[300, 400, 500, 600, 700].map((weight) => (
                  <option key={weight} value={weight}>
                    {weight}
                  </option>
                ))}
              </select>
            </FieldFrame>
          </div>
          <div className="grid gap-4 sm:grid-cols-2">
            {COLOR_PROPERTIES.map((property) => (
              <FieldFrame key={property.key} id={`styling-${property.key}`} label={property.label} error={errorFor(property.key)}>
                <div className="flex gap-2">
                  <input
                    type="color"
                    aria-label={`${property.label} picker`}
                    value={swatch(draft[property.key], property.key)}
                    onChange={set(property.key)}
                    className="h-9 w-10 shrink-0 cursor-pointer rounded border border-slate-300 bg-white p-0.5"
                  />
                  <input
                    id={`styling-${property.key}`}
                    value={draft[property.key] ?? ""}
                    onChange={set(property.key)}
                    placeholder={DEFAULT_FIELD_COLOURS[property.key] === "inherit" ? "the text colour" : DEFAULT_FIELD_COLOURS[property.key] === "transparent" ? "transparent (your page)" : DEFAULT_FIELD_COLOURS[property.key]}
                    aria-invalid={errorFor(property.key) ? true : undefined}
                    aria-describedby={errorFor(property.key) ? `styling-${property.key}-error` : undefined}
                    className={`block w-full rounded-md border-0 px-3 py-2 text-sm shadow-sm ring-1 ring-inset focus:ring-2 focus:ring-indigo-600 ${errorFor(property.key) ? "ring-red-500" : "ring-slate-300"}`}
                  />
                </div>
              </FieldFrame>
            ))}
          </div>
          <div className="grid gap-4 sm:grid-cols-2">
            {PLACEHOLDERS.map((property) => draftField(`placeholders.${property.key}`, `styling-placeholder-${property.key}`, property.label))}
          </div>
        </EditorSection>

        <SaveFormEnd state={state} pending={pending} canSave={!readOnly} idPrefix="hosted-integration" totpEnabled={totpEnabled} disabled={!check.success}>
          Save integration
        </SaveFormEnd>
      </div>

      <div className="xl:col-span-2">
        <div className="sticky top-6 space-y-3 rounded-lg bg-white p-4 shadow-sm ring-1 ring-slate-200 sm:p-6">
          <h2 className="text-base font-semibold">Live preview</h2>
          <p className="text-xs text-slate-500">
            The real hosted fields with this styling, not connected to a payment: type in them to see text, error and valid colours.
          </p>
          {!check.success ? (
            <p className="text-xs text-amber-700">The preview shows the last valid styling until the highlighted values are fixed.</p>
          ) : null}
          <PreviewFrame field="pan" label="Card number" styling={lastGood} />
          <div className="grid grid-cols-3 gap-2">
            <PreviewFrame field="expmonth" label="Month" styling={lastGood} />
            <PreviewFrame field="expyear" label="Year" styling={lastGood} />
            <PreviewFrame field="securitycode" label="CVC" styling={lastGood} />
          </div>
        </div>
      </div>
    </form>
  );
}

/** One card of the editor's form: its fields, disabled together for a role that may only look. */
function EditorSection({ title, disabled, children }: { title: string; disabled: boolean; children: ReactNode }) {
  return (
    <fieldset className="space-y-4 rounded-lg bg-white p-4 shadow-sm ring-1 ring-slate-200 sm:p-6" disabled={disabled}>
      <legend className="sr-only">{title}</legend>
      <h2 className="text-base font-semibold">{title}</h2>
      {children}
    </fieldset>
  );
}

// The origin this page was opened on, as the browser sees it (localhost, 127.0.0.1, a proxy's name):
// only known in the browser, so the server render leaves the frames out until hydration.
const noSubscription = () => () => {};
function useBrowserOrigin(): string | null {
  return useSyncExternalStore(
    noSubscription,
    () => window.location.origin,
    () => null,
  );
}

/**
 * One field in the preview, framed exactly as dynamic.js frames it at checkout: the same height from
 * the same function (lib/cardholder/field-frame-height.ts), no border on the frame itself, so what
 * the preview shows of the field is what the cardholder sees (newcomer review F6).
 */
function PreviewFrame({ field, label, styling }: { field: string; label: string; styling: string }) {
  const origin = useBrowserOrigin();
  const style = { height: `${frameHeights(JSON.parse(styling) as HostedStyling).field}px` };
  return (
    <div>
      <p className="mb-1 text-xs font-medium text-slate-600">{label}</p>
      <div className="rounded outline outline-1 outline-offset-2 outline-dashed outline-slate-300">
        {origin ? (
          <iframe
            title={`Preview of the ${label} field`}
            data-testid={`preview-${field}`}
            // A relative address (whatever host name the back office is on) and the origin the field must
            // answer to; the field script reads its channel from the hash, as dynamic.js passes it.
            src={`/backoffice/settings/hosted/preview?field=${field}&parent=${encodeURIComponent(origin)}&styling=${encodeURIComponent(styling)}#c=backoffice-preview-${field}`}
            className="block w-full border-0"
            style={style}
          />
        ) : (
          <div className="block w-full" style={style} />
        )}
      </div>
    </div>
  );
}
