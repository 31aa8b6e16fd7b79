// The step-up fields of forms that hand out or change credentials: the signed-in user's password
// again, and the current one-time code when they have the second factor on (lib/auth/confirm-identity.ts).
import { TextField } from "@/components/ui/field";
import { cn } from "@/components/ui/cn";

export function ConfirmIdentityFields({
  idPrefix,
  totpEnabled,
  fieldErrors,
  compact = false,
}: {
  idPrefix: string;
  totpEnabled: boolean;
  fieldErrors?: Record<string, string>;
  compact?: boolean;
}) {
  if (compact) {
    // One line in a table row: labels for screen readers, placeholders for the eye.
    const input = "w-32 rounded-md border-0 bg-white px-2 py-1 text-xs ring-1 ring-inset ring-slate-300 focus:ring-2 focus:ring-indigo-600";
    return (
      <>
        <label htmlFor={`${idPrefix}-current-password`} className="sr-only">
          Your password
        </label>
        <input id={`${idPrefix}-current-password`} name="currentPassword" type="password" autoComplete="current-password" placeholder="Your password" className={cn(input, fieldErrors?.currentPassword && "ring-red-500")} />
        {totpEnabled ? (
          <>
            <label htmlFor={`${idPrefix}-current-code`} className="sr-only">
              Your current code
            </label>
            <input id={`${idPrefix}-current-code`} name="currentCode" inputMode="numeric" autoComplete="one-time-code" maxLength={7} placeholder="Code" className={cn(input, "w-20", fieldErrors?.currentCode && "ring-red-500")} />
          </>
        ) : null}
      </>
    );
  }
  return (
    <>
      <TextField
        id={`${idPrefix}-current-password`}
        name="currentPassword"
        label="Your password"
        type="password"
        autoComplete="current-password"
        hint="Asked again to confirm it is you."
        error={fieldErrors?.currentPassword}
      />
      {totpEnabled ? (
        <TextField id={`${idPrefix}-current-code`} name="currentCode" label="Your current code" inputMode="numeric" autoComplete="one-time-code" maxLength={7} error={fieldErrors?.currentCode} />
      ) : null}
    </>
  );
}
