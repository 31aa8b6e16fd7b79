"use server";
import { revalidatePath } from "next/cache";
import { requireActor } from "@/lib/auth/session";
import { updateNotificationUrls } from "@/lib/backoffice/actions/update-notification-urls";
import { sendTestNotification, type TestNotificationResult } from "@/lib/backoffice/actions/send-test-notification";
import { formObject, runAction, type ActionState } from "@/lib/backoffice/action-result";

export async function saveNotificationUrlsAction(_previous: ActionState, formData: FormData): Promise<ActionState> {
  return runAction(async () => {
    const actor = await requireActor();
    await updateNotificationUrls({ actor, input: formObject(formData) });
    revalidatePath("/backoffice/settings/notifications");
    return { message: "Notification URLs saved." };
  });
}

export async function sendTestNotificationAction(_previous: ActionState<TestNotificationResult>, formData: FormData): Promise<ActionState<TestNotificationResult>> {
  return runAction(async () => {
    const actor = await requireActor();
    const result = await sendTestNotification({ actor, input: formObject(formData) });
    return { message: result.delivered ? "The receiver acknowledged the test notification." : "The receiver did not acknowledge the test notification.", data: result };
  });
}
