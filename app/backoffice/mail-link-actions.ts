"use server";
// Server actions of the pages reached without signing in: "forgot password", the reset link and the
// invitation link. Each one is one use case; their own errors become the form's message.
import { acceptInvitation } from "@/lib/backoffice/actions/accept-invitation";
import { after } from "next/server";
import { requestPasswordReset, requestPasswordResetInput } from "@/lib/backoffice/actions/request-password-reset";
import { log } from "@/lib/observability/logger";
import { resetPasswordWithToken } from "@/lib/backoffice/actions/reset-password-with-token";
import { UserFacingError, formObject, runAction, type ActionState } from "@/lib/backoffice/action-result";
import { MailNotConfiguredError, mailAvailable } from "@/lib/mail/send-mail";
import { InvalidUserTokenError } from "@/lib/users/user-tokens";

async function facing<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof InvalidUserTokenError || error instanceof MailNotConfiguredError) throw new UserFacingError(error.message);
    throw error;
  }
}

export async function requestPasswordResetAction(_previous: ActionState, formData: FormData): Promise<ActionState> {
  return runAction(async () => {
    if (!mailAvailable()) throw new UserFacingError("This service sends no mail. Ask an owner of your account to reset your password.");
    const input = requestPasswordResetInput.parse(formObject(formData));
    // The look-up, the token and the mail run after the answer has gone: done on the request path,
    // an address with an account answered several times slower than one without (security review 4,
    // L1). Failures are logged, never shown: the answer is the same for every address.
    after(() =>
      requestPasswordReset({ input }).catch((error: unknown) =>
        log("auth").error(
          { event: "password_reset.failed" },
          // The last line of the message says what failed (Prisma's first lines quote the calling code).
          `password reset request failed after the answer: ${error instanceof Error ? `${error.name}: ${error.message.trim().split("\n").pop()}` : "unknown error"}`,
        ),
      ),
    );
    return { message: "If an account has this address, a link to reset its password is on its way. It works once, for 30 minutes." };
  });
}

export async function resetPasswordAction(_previous: ActionState, formData: FormData): Promise<ActionState> {
  return runAction(async () => {
    await facing(() => resetPasswordWithToken({ input: formObject(formData) }));
    return { message: "Your password is changed, and every session with the old one has ended. Sign in with the new one." };
  });
}

export async function acceptInvitationAction(_previous: ActionState, formData: FormData): Promise<ActionState> {
  return runAction(async () => {
    const user = await facing(() => acceptInvitation({ input: formObject(formData) }));
    return { message: `Welcome. Sign in as ${user.email} with the password you chose.` };
  });
}
