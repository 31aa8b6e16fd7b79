"use server";
// Server actions of Settings → API-key. Each one: the signed-in actor, then one use case that
// checks the role and scopes everything to the actor's merchant.
import { revalidatePath } from "next/cache";
import { createKey } from "@/lib/backoffice/actions/create-key";
import { revokeKey } from "@/lib/backoffice/actions/revoke-key";
import { rollKey } from "@/lib/backoffice/actions/roll-key";
import { runAction, type ActionState } from "@/lib/backoffice/action-result";
import { formRequest, stepUpRequest } from "../form-request";
import { revealSigningSecret } from "@/lib/backoffice/actions/reveal-signing-secret";
import { rollSigningSecret } from "@/lib/backoffice/actions/roll-signing-secret";
import type { RevealedSecret } from "@/components/backoffice/reveal-secret-field";
import type { NewKey } from "@/lib/backoffice/action-data";

export async function createKeyAction(_previous: ActionState<NewKey>, formData: FormData): Promise<ActionState<NewKey>> {
  return runAction(async () => {
    const { actor, input } = await formRequest(formData);
    // Scopes are checkboxes: every checked value, not only the last.
    const { apiKey, record } = await createKey({ actor, input: { ...input, scopes: formData.getAll("scopes").map(String) } });
    revalidatePath("/backoffice/settings/api-key");
    return { message: `Key “${record.name}” created.`, data: { apiKey, name: record.name, prefix: record.prefix } };
  });
}

export async function rollKeyAction(_previous: ActionState<NewKey>, formData: FormData): Promise<ActionState<NewKey>> {
  return runAction(async () => {
    const { apiKey, record, oldKeyValidUntil } = await rollKey(await formRequest(formData));
    revalidatePath("/backoffice/settings/api-key");
    return {
      message: `Key “${record.name}” rolled.`,
      data: { apiKey, name: record.name, prefix: record.prefix, oldKeyValidUntil: oldKeyValidUntil.toISOString() },
    };
  });
}

export async function revokeKeyAction(_previous: ActionState, formData: FormData): Promise<ActionState> {
  return runAction(async () => {
    await revokeKey(await formRequest(formData));
    revalidatePath("/backoffice/settings/api-key");
    return { message: "Key revoked. Requests with it are refused from now on." };
  });
}

export async function revealSigningSecretAction(_previous: ActionState<RevealedSecret>, formData: FormData): Promise<ActionState<RevealedSecret>> {
  return runAction(async () => {
    const { secret, previousValidUntil } = await revealSigningSecret(await stepUpRequest(formData));
    return {
      message: "Revealed (recorded in the audit log).",
      data: { secret, previousValidUntil: previousValidUntil?.toISOString() ?? null },
    };
  });
}

export async function rollSigningSecretAction(_previous: ActionState<RevealedSecret>, formData: FormData): Promise<ActionState<RevealedSecret>> {
  return runAction(async () => {
    const { secret, previousValidUntil } = await rollSigningSecret(await stepUpRequest(formData));
    revalidatePath("/backoffice/settings/api-key");
    return {
      message: "New secret made: it signs every notification from now on. Put it in your receiver.",
      data: { secret, previousValidUntil: previousValidUntil.toISOString() },
    };
  });
}
