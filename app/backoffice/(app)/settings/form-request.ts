// What the settings' server actions hand their use case (lib/backoffice/actions): the signed-in
// actor and the form's fields, and for a step-up use case also the client's address, which the
// audit log keeps with the confirmation.
import { headers } from "next/headers";
import { requireActor } from "@/lib/auth/session";
import { formObject } from "@/lib/backoffice/action-result";
import type { StepUpRequest } from "@/lib/backoffice/actions/step-up-request";
import { clientIp } from "@/lib/http/client-ip";

export async function formRequest(formData: FormData) {
  return { actor: await requireActor(), input: formObject(formData) };
}

export async function stepUpRequest(formData: FormData): Promise<StepUpRequest<Record<string, string>>> {
  return { ...(await formRequest(formData)), ipAddress: clientIp(await headers()) };
}
