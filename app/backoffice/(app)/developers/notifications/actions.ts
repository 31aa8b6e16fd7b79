"use server";
// Resend from Developers > Notifications: the payment page's use case (lib/backoffice/actions/
// resend-notification.ts), with this page to refresh.
import { revalidatePath } from "next/cache";
import { requireActor } from "@/lib/auth/session";
import { describeResend, resendNotification } from "@/lib/backoffice/actions/resend-notification";
import { formObject, runAction, type ActionState } from "@/lib/backoffice/action-result";

export async function resendFromLogAction(_previous: ActionState<{ delivered: boolean }>, formData: FormData): Promise<ActionState<{ delivered: boolean }>> {
  return runAction(async () => {
    const actor = await requireActor();
    const result = await resendNotification({ actor, input: { notificationId: formObject(formData).notificationId } });
    revalidatePath("/backoffice/developers/notifications");
    return { message: describeResend(result), data: { delivered: result.delivered } };
  });
}
