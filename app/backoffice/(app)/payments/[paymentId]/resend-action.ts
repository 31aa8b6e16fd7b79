"use server";
import { revalidatePath } from "next/cache";
import { requireActor } from "@/lib/auth/session";
import { resendNotification } from "@/lib/backoffice/actions/resend-notification";
import { formObject, runAction, type ActionState } from "@/lib/backoffice/action-result";

export async function resendNotificationAction(_previous: ActionState, formData: FormData): Promise<ActionState> {
  return runAction(async () => {
    const actor = await requireActor();
    const input = formObject(formData);
    const { notificationId } = await resendNotification({ actor, input });
    revalidatePath(`/backoffice/payments/${input.paymentId}`);
    return { message: `Resent as ${notificationId}.` };
  });
}
