"use client";
// Email and password first; when the account has the second factor on, the server answers
// TOTP_REQUIRED and the form asks for the 6-digit code (keeping what was typed).
import { signIn } from "next-auth/react";
import { useRouter } from "next/navigation";
import { useEffect, useRef, useState, type FormEvent } from "react";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { TextField } from "@/components/ui/field";
import { SIGN_IN_ERRORS } from "@/lib/auth/sign-in-errors";

const MESSAGES: Record<string, string> = SIGN_IN_ERRORS;

export function SignInForm({ callbackUrl }: { callbackUrl: string }) {
  const router = useRouter();
  const [needsCode, setNeedsCode] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [fieldErrors, setFieldErrors] = useState<Record<string, string>>({});
  const [pending, setPending] = useState(false);
  const codeRef = useRef<HTMLInputElement>(null);
  // The button stays disabled until React is running: a click before that would submit the form
  // natively and put the password in a URL.
  const [hydrated, setHydrated] = useState(false);
  // eslint-disable-next-line react-hooks/set-state-in-effect -- runs once after hydration, which is the point
  useEffect(() => setHydrated(true), []);

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const email = String(form.get("email") ?? "").trim();
    const password = String(form.get("password") ?? "");
    const totp = String(form.get("totp") ?? "").trim();
    const errors: Record<string, string> = {};
    if (!/^\S+@\S+\.\S+$/.test(email)) errors.email = "Enter a valid email address";
    if (!password) errors.password = "Enter your password";
    // Six digits, or a recovery code (xxxxx-xxxxx) when the authenticator is lost.
    if (needsCode && !/^\d{6}$/.test(totp.replace(/\s+/g, "")) && !/^[a-z2-9]{5}-[a-z2-9]{5}$/i.test(totp)) errors.totp = "Enter the 6 digits shown in your app, or a recovery code";
    setFieldErrors(errors);
    if (Object.keys(errors).length > 0) return;

    setPending(true);
    setError(null);
    const result = await signIn("credentials", { email, password, totp: needsCode ? totp : "", redirect: false });
    setPending(false);
    if (result?.ok && !result.error) {
      router.replace(callbackUrl);
      router.refresh();
      return;
    }
    const code = result?.error ?? "INVALID_CREDENTIALS";
    if (code === "TOTP_REQUIRED") {
      setNeedsCode(true);
      setError(null);
      setTimeout(() => codeRef.current?.focus(), 0);
      return;
    }
    setError(MESSAGES[code] ?? "Sign-in failed. Try again.");
  }

  return (
    <form method="post" onSubmit={onSubmit} noValidate className="space-y-5" aria-describedby={error ? "sign-in-error" : undefined}>
      {error ? (
        <div id="sign-in-error">
          <Alert tone="error">{error}</Alert>
        </div>
      ) : null}
      <TextField id="email" label="Email" type="email" autoComplete="username" required error={fieldErrors.email} readOnly={needsCode} />
      <TextField id="password" label="Password" type="password" autoComplete="current-password" required error={fieldErrors.password} readOnly={needsCode} />
      {needsCode ? (
        <TextField
          id="totp"
          ref={codeRef}
          label="Authentication code"
          hint="The 6-digit code from your authenticator app, or one of your recovery codes."
          autoComplete="one-time-code"
          maxLength={11}
          error={fieldErrors.totp}
        />
      ) : null}
      <Button type="submit" className="w-full" disabled={pending || !hydrated}>
        {pending ? "Signing in…" : needsCode ? "Verify and sign in" : "Sign in"}
      </Button>
    </form>
  );
}
