"use client";
// The notification signing secret (owners only). The page does not hold it until the owner confirms
// their password (and code): "Reveal" asks the server, which records the reveal in the audit log;
// "Hide" forgets it again. "Roll" makes a new secret, the old one signing as well for the chosen
// overlap (review 3, M3).
import { useActionState, useState } from "react";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import type { FormAction } from "@/lib/backoffice/action-result";
import { CopyField } from "./copy-field";
import { ConfirmAndSubmit, OverlapField } from "./form-parts";

export interface RevealedSecret {
  secret: string;
  /** ISO time until which the previous secret still signs, when a roll's overlap runs. */
  previousValidUntil: string | null;
}

type SecretAction = FormAction<RevealedSecret>;

function utc(iso: string): string {
  return `${iso.replace("T", " ").slice(0, 19)} UTC`;
}

export function RevealSecretField({
  label,
  reveal,
  roll,
  overlaps,
  totpEnabled,
  testId,
}: {
  label: string;
  reveal: SecretAction;
  roll: SecretAction;
  overlaps: { seconds: number; label: string }[];
  totpEnabled: boolean;
  testId?: string;
}) {
  const [revealed, revealAction, revealing] = useActionState(reveal, { status: "idle" });
  const [rolled, rollAction, rolling] = useActionState(roll, { status: "idle" });
  const [hidden, setHidden] = useState(false);
  const [mode, setMode] = useState<"idle" | "reveal" | "roll">("idle");
  const shown = rolled.status === "success" ? rolled : revealed.status === "success" && !hidden ? revealed : undefined;
  return (
    <div className="space-y-3">
      <p className="text-xs font-medium uppercase tracking-wide text-slate-500">{label}</p>
      {shown?.data ? (
        <div className="space-y-2">
          <CopyField label={label} value={shown.data.secret} testId={testId} />
          {shown.data.previousValidUntil ? (
            <p className="text-xs text-slate-600">The previous secret also signs until {utc(shown.data.previousValidUntil)}.</p>
          ) : null}
          {rolled.status === "success" ? <Alert tone="success">{rolled.message}</Alert> : null}
          <Button variant="secondary" onClick={() => setHidden(true)}>
            Hide
          </Button>
        </div>
      ) : (
        <code data-testid={testId} className="block rounded bg-slate-100 px-2 py-1 font-mono text-sm text-slate-900">
          {"•".repeat(32)}
        </code>
      )}
      {mode === "reveal" && !(revealed.status === "success" && !hidden) ? (
        <form
          action={(formData) => (setHidden(false), revealAction(formData))}
          className="flex flex-col gap-2 sm:flex-row sm:items-end"
          noValidate
        >
          <ConfirmAndSubmit idPrefix="reveal-secret" totpEnabled={totpEnabled} fieldErrors={revealed.fieldErrors} pending={revealing} pendingLabel="Revealing…">
            Reveal secret
          </ConfirmAndSubmit>
        </form>
      ) : null}
      {mode === "roll" && rolled.status !== "success" ? (
        <form action={rollAction} className="flex flex-col gap-2 sm:flex-row sm:items-end" noValidate>
          <OverlapField id="signing-secret-overlap" name="overlapSeconds" label="Old secret stops signing" periods={overlaps} defaultSeconds={24 * 60 * 60} error={rolled.fieldErrors?.overlapSeconds} />
          <ConfirmAndSubmit idPrefix="roll-secret" totpEnabled={totpEnabled} fieldErrors={rolled.fieldErrors} pending={rolling} pendingLabel="Rolling…">
            Roll secret
          </ConfirmAndSubmit>
        </form>
      ) : null}
      {mode === "idle" ? (
        <div className="flex gap-2">
          <Button variant="secondary" onClick={() => setMode("reveal")}>
            Reveal
          </Button>
          <Button variant="secondary" onClick={() => setMode("roll")}>
            Roll
          </Button>
        </div>
      ) : null}
      {revealed.status === "error" && !revealed.fieldErrors ? <Alert tone="error">{revealed.message}</Alert> : null}
      {rolled.status === "error" && !rolled.fieldErrors ? <Alert tone="error">{rolled.message}</Alert> : null}
      <p className="text-xs text-slate-500">Revealing and rolling ask for your password and are recorded in the audit log.</p>
    </div>
  );
}
