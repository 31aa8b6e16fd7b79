"use server";
import { revalidatePath } from "next/cache";
import { requireActor } from "@/lib/auth/session";
import { saveHostedIntegration } from "@/lib/backoffice/actions/save-hosted-integration";
import { updateCheckoutOrigins } from "@/lib/backoffice/actions/update-checkout-origins";
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

export async function saveCheckoutOriginsAction(_previous: ActionState, formData: FormData): Promise<ActionState> {
  return runAction(async () => {
    const actor = await requireActor();
    const origins = await updateCheckoutOrigins({ actor, input: formObject(formData) });
    revalidatePath("/backoffice/settings/hosted");
    return {
      message:
        origins.length === 0
          ? "No checkout origins listed: any page that loads dynamic.js can show the fields."
          : `Saved. Only ${origins.length === 1 ? "this origin" : `these ${origins.length} origins`} can show the hosted fields (hostedids with their own list excepted).`,
    };
  });
}
