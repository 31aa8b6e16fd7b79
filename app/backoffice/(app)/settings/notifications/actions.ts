"use server";
import { revalidatePath } from "next/cache";
import { updateNotificationUrls } from "@/lib/backoffice/actions/update-notification-urls";
import { sendTestNotification, type TestNotificationResult } from "@/lib/backoffice/actions/send-test-notification";
import { runAction, type ActionState } from "@/lib/backoffice/action-result";
import { addWebhookEndpoint } from "@/lib/backoffice/actions/add-webhook-endpoint";
import { disableWebhookEndpoint } from "@/lib/backoffice/actions/disable-webhook-endpoint";
import { rollWebhookEndpointSecret } from "@/lib/backoffice/actions/roll-webhook-endpoint-secret";
import { formRequest, stepUpRequest } from "../form-request";

export async function saveNotificationUrlsAction(_previous: ActionState, formData: FormData): Promise<ActionState> {
  return runAction(async () => {
    await updateNotificationUrls(await formRequest(formData));
    revalidatePath("/backoffice/settings/notifications");
    return { message: "Notification URLs saved." };
  });
}

export async function sendTestNotificationAction(_previous: ActionState<TestNotificationResult>, formData: FormData): Promise<ActionState<TestNotificationResult>> {
  return runAction(async () => {
    const result = await sendTestNotification(await formRequest(formData));
    return { message: result.delivered ? "The receiver acknowledged the test notification." : "The receiver did not acknowledge the test notification.", data: result };
  });
}

export interface ShownEndpointSecret {
  secret: string;
  previousValidUntil: string | null;
}

export async function addWebhookEndpointAction(_previous: ActionState<ShownEndpointSecret>, formData: FormData): Promise<ActionState<ShownEndpointSecret>> {
  return runAction(async () => {
    const request = await stepUpRequest(formData);
    // Kinds are checkboxes: every checked value, not only the last.
    const { secret } = await addWebhookEndpoint({ ...request, input: { ...request.input, kinds: formData.getAll("kinds").map(String) } });
    revalidatePath("/backoffice/settings/notifications");
    return { message: "Endpoint added. Put its signing secret in that receiver: it is shown only now.", data: { secret, previousValidUntil: null } };
  });
}

export async function disableWebhookEndpointAction(_previous: ActionState, formData: FormData): Promise<ActionState> {
  return runAction(async () => {
    await disableWebhookEndpoint(await formRequest(formData));
    revalidatePath("/backoffice/settings/notifications");
    return { message: "Endpoint disabled: it gets no new notifications." };
  });
}

export async function rollWebhookEndpointSecretAction(_previous: ActionState<ShownEndpointSecret>, formData: FormData): Promise<ActionState<ShownEndpointSecret>> {
  return runAction(async () => {
    const { secret, previousValidUntil } = await rollWebhookEndpointSecret(await stepUpRequest(formData));
    revalidatePath("/backoffice/settings/notifications");
    return { message: "New secret made: it signs this endpoint's notifications from now on.", data: { secret, previousValidUntil: previousValidUntil.toISOString() } };
  });
}
