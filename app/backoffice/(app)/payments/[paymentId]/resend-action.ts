"use server";
import { revalidatePath } from "next/cache";
import { requireActor } from "@/lib/auth/session";
import { describeResend, resendNotification } from "@/lib/backoffice/actions/resend-notification";
import { formObject, runAction, type ActionState } from "@/lib/backoffice/action-result";

export async function resendNotificationAction(_previous: ActionState<{ delivered: boolean }>, formData: FormData): Promise<ActionState<{ delivered: boolean }>> {
  return runAction(async () => {
    const actor = await requireActor();
    const input = formObject(formData);
    const result = await resendNotification({ actor, input });
    revalidatePath(`/backoffice/payments/${input.paymentId}`);
    return { message: describeResend(result), data: { delivered: result.delivered } };
  });
}
