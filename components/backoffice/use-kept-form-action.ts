"use client";
// React resets a <form action={...}> once its action has run, so a refused form came back with what
// was typed wiped out (newcomer review F7: "not a url" was refused, and the field was then empty).
// Forms send through this hook instead: the same server action, dispatched from onSubmit without
// the reset, so a refusal leaves every field as typed for the person to fix. On success the form
// is reset, which shows what was saved (the fields' new default values) or clears a one-off form.
import { startTransition, useActionState, useEffect, useRef, type FormEvent } from "react";
import type { ActionState, FormAction } from "@/lib/backoffice/action-result";

export function useKeptFormAction<T = undefined>(action: FormAction<T>, { resetOnSuccess = true }: { resetOnSuccess?: boolean } = {}) {
  const [state, formAction, pending] = useActionState<ActionState<T>, FormData>(action, { status: "idle" });
  const sent = useRef<HTMLFormElement | null>(null);
  useEffect(() => {
    if (resetOnSuccess && state.status === "success") sent.current?.reset();
  }, [state, resetOnSuccess]);

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    // A handler before this one (a confirm dialog) may have cancelled the submission.
    if (event.defaultPrevented) return;
    event.preventDefault();
    sent.current = event.currentTarget;
    const submitter = (event.nativeEvent as SubmitEvent).submitter;
    const formData = new FormData(event.currentTarget, submitter);
    startTransition(() => formAction(formData));
  }

  /** Spread on the <form>: `action` keeps it working before hydration, `onSubmit` sends it afterwards. */
  return { state, pending, form: { action: formAction, onSubmit } };
}
