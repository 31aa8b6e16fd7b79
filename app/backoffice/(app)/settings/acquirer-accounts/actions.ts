"use server";
// Server actions of Settings → Acquirer accounts (owners). Each one: the signed-in actor, then one
// use case that checks the role, asks for the step-up, and scopes everything to the actor's merchant.
import { revalidatePath } from "next/cache";
import { requireActor } from "@/lib/auth/session";
import { formObject, runAction, type ActionState } from "@/lib/backoffice/action-result";
import { addAcquirerAccount } from "@/lib/backoffice/actions/add-acquirer-account";
import { changeAcquirerAccount } from "@/lib/backoffice/actions/change-acquirer-account";
import { testAcquirerAccount } from "@/lib/backoffice/actions/test-acquirer-account";
import type { ConnectionTest } from "@/lib/routing/accounts/test-acquirer-connection";

const PAGE = "/backoffice/settings/acquirer-accounts";

export async function addAcquirerAccountAction(_previous: ActionState, formData: FormData): Promise<ActionState> {
  return runAction(async () => {
    const account = await addAcquirerAccount({ actor: await requireActor(), form: formObject(formData) });
    revalidatePath(PAGE);
    return { message: `Account “${account.name}” added.` };
  });
}

export async function changeAcquirerAccountAction(_previous: ActionState, formData: FormData): Promise<ActionState> {
  return runAction(async () => {
    const { after, credentialsChanged } = await changeAcquirerAccount({ actor: await requireActor(), form: formObject(formData) });
    revalidatePath(PAGE);
    return {
      message: `Account “${after.name}” saved${credentialsChanged ? " with new credentials" : ""}${after.enabled ? "" : " (disabled: it takes no new payments)"}.`,
    };
  });
}

export async function testAcquirerAccountAction(
  _previous: ActionState<ConnectionTest>,
  formData: FormData,
): Promise<ActionState<ConnectionTest>> {
  return runAction(async () => {
    const result = await testAcquirerAccount({ actor: await requireActor(), form: formObject(formData) });
    return { message: result.ok ? "Connected." : "The acquirer refused or did not answer.", data: result };
  });
}
