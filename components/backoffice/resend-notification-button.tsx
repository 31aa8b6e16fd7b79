"use client";
import { useActionState } from "react";
import { Button } from "@/components/ui/button";
import type { ActionState } from "@/lib/backoffice/action-result";

type Action = (previous: ActionState<{ delivered: boolean }>, formData: FormData) => Promise<ActionState<{ delivered: boolean }>>;

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
      <Button type="submit" variant="secondary" disabled={pending} className="px-2 py-1 text-xs">
        {pending ? "Resending…" : "Resend"}
      </Button>
    </form>
  );
}
