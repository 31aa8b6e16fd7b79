"use server";
import { revalidatePath } from "next/cache";
import { headers } from "next/headers";
import { requireActor } from "@/lib/auth/session";
import { updatePayoutLimits } from "@/lib/backoffice/actions/update-payout-limits";
import { formObject, runAction, type ActionState } from "@/lib/backoffice/action-result";
import { clientIp } from "@/lib/http/client-ip";

export async function savePayoutLimitAction(_previous: ActionState, formData: FormData): Promise<ActionState> {
  return runAction(async () => {
    const actor = await requireActor();
    const saved = await updatePayoutLimits({ actor, input: formObject(formData), ipAddress: clientIp(await headers()) });
    revalidatePath("/backoffice/settings/payouts");
    return { message: `Payout limits for ${saved.currency} saved.` };
  });
}
