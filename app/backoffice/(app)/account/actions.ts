"use server";
import { revalidatePath } from "next/cache";
import { headers } from "next/headers";
import { z } from "zod";
import { requireActor } from "@/lib/auth/session";
import { startTotpEnrolment } from "@/lib/auth/start-totp-enrolment";
import { confirmTotpEnrolment } from "@/lib/auth/confirm-totp-enrolment";
import { disableTotp } from "@/lib/auth/disable-totp";
import { reissueSession } from "@/lib/auth/reissue-session";
import { formObject, runAction, type ActionState } from "@/lib/backoffice/action-result";
import { changePassword } from "@/lib/backoffice/actions/change-password";
import { clientIp } from "@/lib/http/client-ip";
import type { Enrolment } from "@/lib/backoffice/action-data";

const codeInput = z.object({ code: z.string().trim().regex(/^\d{3} ?\d{3}$/, "Enter the 6 digits shown in your app") });


// Changing the password and turning on the second factor are also what a user must do first when
// their account needs setting up (a temporary password, MFA required): those actions pass accountSetup.
export async function startTotpAction(_previous: ActionState<Enrolment>, formData: FormData): Promise<ActionState<Enrolment>> {
  return runAction(async () => {
    const actor = await requireActor(undefined, { accountSetup: true });
    const enrolment = await startTotpEnrolment({ userId: actor.userId, input: formObject(formData) });
    return { message: "Scan the QR code with your authenticator app, then enter the code it shows.", data: enrolment };
  });
}

export async function confirmTotpAction(_previous: ActionState<{ recoveryCodes?: string[] }>, formData: FormData): Promise<ActionState<{ recoveryCodes?: string[] }>> {
  return runAction(async () => {
    const actor = await requireActor(undefined, { accountSetup: true });
    const { code } = codeInput.parse({ code: formData.get("code") });
    const enabled = await confirmTotpEnrolment({ userId: actor.userId, code });
    // The new secret signs out the user's other sessions; this one goes on with the new version.
    if (enabled !== null) await reissueSession(enabled.sessionVersion);
    revalidatePath("/backoffice/account");
    return {
      message: "Two-factor authentication is on. You will be asked for a code at every sign-in. Your other sessions were signed out.",
      data: enabled ? { recoveryCodes: enabled.recoveryCodes } : {},
    };
  });
}

export async function disableTotpAction(_previous: ActionState<{ recoveryCodes?: string[] }>, formData: FormData): Promise<ActionState<{ recoveryCodes?: string[] }>> {
  return runAction(async () => {
    const actor = await requireActor();
    const { code } = codeInput.parse({ code: formData.get("code") });
    const sessionVersion = await disableTotp({ userId: actor.userId, input: { currentPassword: formData.get("currentPassword") ?? "", code } });
    if (sessionVersion !== null) await reissueSession(sessionVersion);
    revalidatePath("/backoffice/account");
    return { message: "Two-factor authentication is off. Your other sessions were signed out." };
  });
}

export async function changePasswordAction(_previous: ActionState, formData: FormData): Promise<ActionState> {
  return runAction(async () => {
    const actor = await requireActor(undefined, { accountSetup: true });
    const sessionVersion = await changePassword({ actor, input: formObject(formData), ipAddress: clientIp(await headers()) });
    // Every other session of the user ended; this one goes on with the new version.
    await reissueSession(sessionVersion);
    revalidatePath("/backoffice/account");
    return { message: "Your password was changed. Your other sessions were signed out." };
  });
}
