"use server";
import { revalidatePath } from "next/cache";
import { z } from "zod";
import { requireActor } from "@/lib/auth/session";
import { startTotpEnrolment } from "@/lib/auth/start-totp-enrolment";
import { confirmTotpEnrolment } from "@/lib/auth/confirm-totp-enrolment";
import { disableTotp } from "@/lib/auth/disable-totp";
import { runAction, type ActionState } from "@/lib/backoffice/action-result";

const codeInput = z.object({ code: z.string().trim().regex(/^\d{3} ?\d{3}$/, "Enter the 6 digits shown in your app") });

export interface Enrolment {
  secret: string;
  uri: string;
  qrSvg: string;
}

export async function startTotpAction(_previous: ActionState<Enrolment>): Promise<ActionState<Enrolment>> {
  return runAction(async () => {
    const actor = await requireActor();
    const enrolment = await startTotpEnrolment({ userId: actor.userId });
    return { message: "Scan the QR code with your authenticator app, then enter the code it shows.", data: enrolment };
  });
}

export async function confirmTotpAction(_previous: ActionState, formData: FormData): Promise<ActionState> {
  return runAction(async () => {
    const actor = await requireActor();
    const { code } = codeInput.parse({ code: formData.get("code") });
    await confirmTotpEnrolment({ userId: actor.userId, code });
    revalidatePath("/backoffice/account");
    return { message: "Two-factor authentication is on. You will be asked for a code at every sign-in." };
  });
}

export async function disableTotpAction(_previous: ActionState, formData: FormData): Promise<ActionState> {
  return runAction(async () => {
    const actor = await requireActor();
    const { code } = codeInput.parse({ code: formData.get("code") });
    await disableTotp({ userId: actor.userId, code });
    revalidatePath("/backoffice/account");
    return { message: "Two-factor authentication is off." };
  });
}
