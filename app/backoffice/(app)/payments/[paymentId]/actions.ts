"use server";
import { revalidatePath } from "next/cache";
import { requireActor } from "@/lib/auth/session";
import { operateOnPayment } from "@/lib/backoffice/actions/operate-on-payment";
import { formObject, runAction, type ActionState } from "@/lib/backoffice/action-result";

export async function operateOnPaymentAction(_previous: ActionState, formData: FormData): Promise<ActionState> {
  return runAction(async () => {
    const actor = await requireActor();
    const input = formObject(formData);
    const { responseid } = await operateOnPayment({ actor, input });
    revalidatePath(`/backoffice/payments/${input.paymentId}`);
    return { message: `${input.operation === "void" ? "Void" : input.operation === "refund" ? "Refund" : "Capture"} requested (responseid ${responseid}). The result appears in the timeline when the processor answers.` };
  });
}
