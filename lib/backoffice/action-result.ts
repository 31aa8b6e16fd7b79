// The result every back-office server action returns to its form: field messages from zod, or one
// message for the whole form. Expected failures become messages; anything else is rethrown.
import { z } from "zod";
import { NUL } from "../db/postgres-text";
import { ForbiddenError, NotFoundError } from "../auth/actor";
import { AccountSetupRequiredError, UnauthenticatedError } from "../auth/session";
import { ApiError, isDatabaseOverload } from "../errors";
import { ApiKeyNotFoundError } from "../api-keys/revoke-api-key";
import { ApiKeyNotRollableError } from "../api-keys/roll-api-key";
import { IdentityNotConfirmedError } from "../auth/confirm-identity";
import { InvalidTotpCodeError } from "../auth/confirm-totp-enrolment";
import { TotpAttemptsExceededError, TotpRequiredError } from "../auth/disable-totp";
import { UserExistsError } from "../users/create-user";

export interface ActionState<T = undefined> {
  status: "idle" | "success" | "error";
  message?: string;
  fieldErrors?: Record<string, string>;
  /** Where to fix what the message names (e.g. Settings → Notifications). */
  link?: ActionLink;
  data?: T;
}

/** A server action as its form calls it (useActionState): the state it answered last time, and the form's data. */
export type FormAction<T = undefined> = (previous: ActionState<T>, formData: FormData) => Promise<ActionState<T>>;

export interface ActionLink {
  href: string;
  label: string;
}

export const IDLE: ActionState<never> = { status: "idle" };

/** Domain errors whose message is written for the user, with the field it is about and where to fix it. */
export class UserFacingError extends Error {
  readonly field?: string;
  readonly link?: ActionLink;

  constructor(message: string, options: { field?: string; link?: ActionLink } = {}) {
    super(message);
    this.name = "UserFacingError";
    this.field = options.field;
    this.link = options.link;
  }
}

export const BUSY_MESSAGE =
  "The service is too busy to answer right now. Reload the page to see what was saved, then try again in a moment.";

export async function runAction<T>(work: () => Promise<{ message: string; data?: T }>): Promise<ActionState<T>> {
  try {
    const { message, data } = await work();
    return { status: "success", message, data };
  } catch (error) {
    if (error instanceof z.ZodError) {
      const fieldErrors: Record<string, string> = {};
      for (const issue of error.issues) fieldErrors[String(issue.path[0] ?? "form")] ??= issue.message;
      return { status: "error", message: "Check the highlighted fields.", fieldErrors };
    }
    if (error instanceof IdentityNotConfirmedError) return { status: "error", message: error.message, fieldErrors: { [error.field]: error.message } };
    if (error instanceof UserFacingError) {
      return { status: "error", message: error.message, ...(error.field ? { fieldErrors: { [error.field]: error.message } } : {}), ...(error.link ? { link: error.link } : {}) };
    }
    if (error instanceof ForbiddenError || error instanceof NotFoundError || error instanceof UnauthenticatedError || error instanceof AccountSetupRequiredError) {
      return { status: "error", message: error.message };
    }
    // The merchant API's refusals (lib/errors.ts) name the parameter and the reason: fit for people too.
    if (error instanceof ApiError) return { status: "error", message: error.message };
    // Overload (no database connection in time): a "try again" message instead of an error page. An
    // action may have saved part of its work before (a capture before its audit row), so it says to look.
    if (isDatabaseOverload(error)) return { status: "error", message: BUSY_MESSAGE };
    if (error instanceof UserExistsError) return { status: "error", message: "A user with this email address already exists.", fieldErrors: { email: "Already used by another user" } };
    if (error instanceof ApiKeyNotFoundError || error instanceof ApiKeyNotRollableError || error instanceof InvalidTotpCodeError || error instanceof TotpAttemptsExceededError || error instanceof TotpRequiredError) {
      return { status: "error", message: error.message };
    }
    throw error;
  }
}

/**
 * A form's text fields. A value holding U+0000 is refused with a message on its field: no form has a
 * use for it, and PostgreSQL cannot store it (a free-text field would fail its INSERT).
 */
export function formObject(formData: FormData): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of formData.entries()) {
    if (typeof value !== "string" || key.startsWith("$ACTION")) continue;
    if (value.includes(NUL)) throw new UserFacingError("Remove the NUL character (U+0000) from this field.", { field: key });
    out[key] = value;
  }
  return out;
}
