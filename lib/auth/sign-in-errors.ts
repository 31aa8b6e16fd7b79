// The codes a sign-in answers with and what the form shows for each. They travel through next-auth's
// `error` parameter (it puts the message of the error `authorize` throws into the redirect URL), so
// only these codes may ever be thrown there: never a database's or a library's own message. The form
// (a client component) reads the texts from here, which is why this file imports nothing.

export const SIGN_IN_ERRORS = {
  INVALID_CREDENTIALS: "The email address or password is not correct.",
  TOTP_REQUIRED: "Enter the 6-digit code from your authenticator app.",
  INVALID_TOTP: "That code is not correct or has expired. Enter the current code.",
  RATE_LIMITED: "Too many failed sign-in attempts. Wait 15 minutes and try again.",
  TEMPORARY_PASSWORD_EXPIRED: "This temporary password has expired. Ask an owner or the operator for a new one.",
  /** Anything else that went wrong on our side (the database busy or unreachable): logged, not shown. */
  UNAVAILABLE: "Signing in is not possible right now. Try again in a moment.",
} as const;

export type SignInErrorCode = keyof typeof SIGN_IN_ERRORS;
