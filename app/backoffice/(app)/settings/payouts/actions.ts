"use server";
import { revalidatePath } from "next/cache";
import { updatePayoutLimits } from "@/lib/backoffice/actions/update-payout-limits";
import { runAction, type ActionState } from "@/lib/backoffice/action-result";
import { stepUpRequest } from "../form-request";

export async function savePayoutLimitAction(_previous: ActionState, formData: FormData): Promise<ActionState> {
  return runAction(async () => {
    const saved = await updatePayoutLimits(await stepUpRequest(formData));
    revalidatePath("/backoffice/settings/payouts");
    return { message: `Payout limits for ${saved.currency} saved.` };
  });
}
