"use client";
import { useActionState } from "react";

import type { FormAction } from "@/lib/backoffice/action-result";
import { SubmitButton } from "./form-parts";

type Action = FormAction<{ delivered: boolean }>;

export function ResendNotificationButton({ action, notificationId, paymentId }: { action: Action; notificationId: string; paymentId: string }) {
  const [state, formAction, pending] = useActionState(action, { status: "idle" });
  return (
    <form action={formAction} className="flex items-center gap-2">
      <input type="hidden" name="notificationId" value={notificationId} />
      <input type="hidden" name="paymentId" value={paymentId} />
      {state.message ? (
        <span role={state.status === "error" ? "alert" : "status"} className={`text-xs ${state.status === "success" && state.data?.delivered ? "text-emerald-700" : "text-red-700"}`}>
          {state.message}
        </span>
      ) : null}
      <SubmitButton pending={pending} pendingLabel="Resending…" variant="secondary" className="px-2 py-1 text-xs">
        Resend
      </SubmitButton>
    </form>
  );
}
