"use server";
import { revalidatePath } from "next/cache";
import { requireActor } from "@/lib/auth/session";
import { saveHostedIntegration } from "@/lib/backoffice/actions/save-hosted-integration";
import { formObject, runAction, type ActionState } from "@/lib/backoffice/action-result";

export async function saveHostedIntegrationAction(_previous: ActionState<{ id: string }>, formData: FormData): Promise<ActionState<{ id: string }>> {
  const result = await runAction(async () => {
    const actor = await requireActor();
    const saved = await saveHostedIntegration({ actor, input: formObject(formData) });
    revalidatePath("/backoffice/settings/hosted");
    return { message: `Integration “${saved.hostedId}” saved. New payment sessions with this hostedid use it.`, data: { id: saved.id } };
  });
  // zod reports styling issues under "styling"; the editor shows them next to each property.
  if (result.fieldErrors?.styling) result.message = `Styling: ${result.fieldErrors.styling}`;
  return result;
}
