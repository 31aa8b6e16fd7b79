"use server";
// Server actions of Settings → API-key. Each one: the signed-in actor, then one use case that
// checks the role and scopes everything to the actor's merchant.
import { revalidatePath } from "next/cache";
import { headers } from "next/headers";
import { requireActor } from "@/lib/auth/session";
import { createKey } from "@/lib/backoffice/actions/create-key";
import { revokeKey } from "@/lib/backoffice/actions/revoke-key";
import { rollKey } from "@/lib/backoffice/actions/roll-key";
import { formObject, runAction, type ActionState } from "@/lib/backoffice/action-result";
import { revealSigningSecret } from "@/lib/backoffice/actions/reveal-signing-secret";
import { rollSigningSecret } from "@/lib/backoffice/actions/roll-signing-secret";
import type { RevealedSecret } from "@/components/backoffice/reveal-secret-field";
import { clientIp } from "@/lib/http/client-ip";
import type { NewKey } from "@/lib/backoffice/action-data";

export async function createKeyAction(_previous: ActionState<NewKey>, formData: FormData): Promise<ActionState<NewKey>> {
  return runAction(async () => {
    const actor = await requireActor();
    // Scopes are checkboxes: every checked value, not only the last.
    const { apiKey, record } = await createKey({ actor, input: { ...formObject(formData), scopes: formData.getAll("scopes").map(String) } });
    revalidatePath("/backoffice/settings/api-key");
    return { message: `Key “${record.name}” created.`, data: { apiKey, name: record.name, prefix: record.prefix } };
  });
}

export async function rollKeyAction(_previous: ActionState<NewKey>, formData: FormData): Promise<ActionState<NewKey>> {
  return runAction(async () => {
    const actor = await requireActor();
    const { apiKey, record, oldKeyValidUntil } = await rollKey({ actor, input: formObject(formData) });
    revalidatePath("/backoffice/settings/api-key");
    return {
      message: `Key “${record.name}” rolled.`,
      data: { apiKey, name: record.name, prefix: record.prefix, oldKeyValidUntil: oldKeyValidUntil.toISOString() },
    };
  });
}

export async function revokeKeyAction(_previous: ActionState, formData: FormData): Promise<ActionState> {
  return runAction(async () => {
    const actor = await requireActor();
    await revokeKey({ actor, input: formObject(formData) });
    revalidatePath("/backoffice/settings/api-key");
    return { message: "Key revoked. Requests with it are refused from now on." };
  });
}

export async function revealSigningSecretAction(
  _previous: ActionState<RevealedSecret>,
  formData: FormData,
): Promise<ActionState<RevealedSecret>> {
  return runAction(async () => {
    const actor = await requireActor();
    const { secret, previousValidUntil } = await revealSigningSecret({
      actor,
      input: formObject(formData),
      ipAddress: clientIp(await headers()),
    });
    return {
      message: "Revealed (recorded in the audit log).",
      data: { secret, previousValidUntil: previousValidUntil?.toISOString() ?? null },
    };
  });
}

export async function rollSigningSecretAction(
  _previous: ActionState<RevealedSecret>,
  formData: FormData,
): Promise<ActionState<RevealedSecret>> {
  return runAction(async () => {
    const actor = await requireActor();
    const { secret, previousValidUntil } = await rollSigningSecret({
      actor,
      input: formObject(formData),
      ipAddress: clientIp(await headers()),
    });
    revalidatePath("/backoffice/settings/api-key");
    return {
      message: "New secret made: it signs every notification from now on. Put it in your receiver.",
      data: { secret, previousValidUntil: previousValidUntil.toISOString() },
    };
  });
}
