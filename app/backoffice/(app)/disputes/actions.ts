"use server";
// Server action of the Disputes page (owners and developers): "Check for new disputes now", the
// signed-in actor, then one use case that checks the role and the rate rule and runs the poll.
import { revalidatePath } from "next/cache";
import { requireActor } from "@/lib/auth/session";
import { runAction, type ActionState } from "@/lib/backoffice/action-result";
import { checkForNewDisputes, type DisputeCheckLine } from "@/lib/backoffice/actions/check-for-new-disputes";

export async function checkForNewDisputesAction(_previous: ActionState<DisputeCheckLine[]>, _formData: FormData): Promise<ActionState<DisputeCheckLine[]>> {
  return runAction(async () => {
    const { message, accounts } = await checkForNewDisputes({ actor: await requireActor() });
    // The list below and the notes on failing accounts show what it found.
    revalidatePath("/backoffice/disputes");
    return { message, data: accounts };
  });
}
