"use server";
import { revalidatePath } from "next/cache";
import { requireActor } from "@/lib/auth/session";
import { updateNotificationUrls } from "@/lib/backoffice/actions/update-notification-urls";
import { sendTestNotification, type TestNotificationResult } from "@/lib/backoffice/actions/send-test-notification";
import { formObject, runAction, type ActionState } from "@/lib/backoffice/action-result";
import { addWebhookEndpoint } from "@/lib/backoffice/actions/add-webhook-endpoint";
import { disableWebhookEndpoint } from "@/lib/backoffice/actions/disable-webhook-endpoint";
import { rollWebhookEndpointSecret } from "@/lib/backoffice/actions/roll-webhook-endpoint-secret";
import { headers } from "next/headers";
import { clientIp } from "@/lib/http/client-ip";

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

export interface ShownEndpointSecret {
  secret: string;
  previousValidUntil: string | null;
}

export async function addWebhookEndpointAction(_previous: ActionState<ShownEndpointSecret>, formData: FormData): Promise<ActionState<ShownEndpointSecret>> {
  return runAction(async () => {
    const actor = await requireActor();
    // Kinds are checkboxes: every checked value, not only the last.
    const { secret } = await addWebhookEndpoint({ actor, input: { ...formObject(formData), kinds: formData.getAll("kinds").map(String) }, ipAddress: clientIp(await headers()) });
    revalidatePath("/backoffice/settings/notifications");
    return { message: "Endpoint added. Put its signing secret in that receiver: it is shown only now.", data: { secret, previousValidUntil: null } };
  });
}

export async function disableWebhookEndpointAction(_previous: ActionState, formData: FormData): Promise<ActionState> {
  return runAction(async () => {
    const actor = await requireActor();
    await disableWebhookEndpoint({ actor, input: formObject(formData) });
    revalidatePath("/backoffice/settings/notifications");
    return { message: "Endpoint disabled: it gets no new notifications." };
  });
}

export async function rollWebhookEndpointSecretAction(_previous: ActionState<ShownEndpointSecret>, formData: FormData): Promise<ActionState<ShownEndpointSecret>> {
  return runAction(async () => {
    const actor = await requireActor();
    const { secret, previousValidUntil } = await rollWebhookEndpointSecret({ actor, input: formObject(formData), ipAddress: clientIp(await headers()) });
    revalidatePath("/backoffice/settings/notifications");
    return { message: "New secret made: it signs this endpoint's notifications from now on.", data: { secret, previousValidUntil: previousValidUntil.toISOString() } };
  });
}
