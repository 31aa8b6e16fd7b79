"use server";
// Server actions of Settings → Acquirer accounts (owners). Each one: the signed-in actor, then one
// use case that checks the role, asks for the step-up, and scopes everything to the actor's merchant.
import { revalidatePath } from "next/cache";
import { requireActor } from "@/lib/auth/session";
import { formObject, runAction, type ActionState } from "@/lib/backoffice/action-result";
import { addAcquirerAccount } from "@/lib/backoffice/actions/add-acquirer-account";
import { changeAcquirerAccount } from "@/lib/backoffice/actions/change-acquirer-account";
import { testAcquirerAccount } from "@/lib/backoffice/actions/test-acquirer-account";
import { setAccountReportingCredentials } from "@/lib/backoffice/actions/set-account-reporting-credentials";
import { testAccountReporting } from "@/lib/backoffice/actions/test-account-reporting";
import type { ConnectionTest } from "@/lib/routing/accounts/test-acquirer-connection";
import type { ConnectionCheck } from "@/lib/acquirers/contract";

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

export async function setReportingCredentialsAction(_previous: ActionState, formData: FormData): Promise<ActionState> {
  return runAction(async () => {
    const { fingerprint, api } = await setAccountReportingCredentials({ actor: await requireActor(), form: formObject(formData) });
    revalidatePath(PAGE);
    return { message: `${api} credentials saved (fingerprint ${fingerprint}). The next poll, or "Test reporting API", checks them.` };
  });
}

export async function testReportingAction(_previous: ActionState<ConnectionCheck>, formData: FormData): Promise<ActionState<ConnectionCheck>> {
  return runAction(async () => {
    const result = await testAccountReporting({ actor: await requireActor(), form: formObject(formData) });
    // The check state under the button is the account's, recorded by the test.
    revalidatePath(PAGE);
    return { message: result.ok ? "Connected." : "The reporting API refused or did not answer.", data: result };
  });
}
