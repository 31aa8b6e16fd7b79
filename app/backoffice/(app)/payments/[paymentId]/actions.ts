"use server";
import { revalidatePath } from "next/cache";
import { headers } from "next/headers";
import { clientIp } from "@/lib/http/client-ip";
import { requireActor } from "@/lib/auth/session";
import { operateOnPayment } from "@/lib/backoffice/actions/operate-on-payment";
import { settleOperation } from "@/lib/backoffice/actions/settle-operation";
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

export async function settleOperationAction(_previous: ActionState, formData: FormData): Promise<ActionState> {
  return runAction(async () => {
    const actor = await requireActor();
    const input = formObject(formData);
    const settled = await settleOperation({ actor, input, ipAddress: clientIp(await headers()) });
    revalidatePath(`/backoffice/payments/${settled.paymentId}`);
    return {
      message: `The ${settled.type} is settled ${settled.status}${settled.notificationId ? "; the merchant is notified" : ""}. The audit log has your entry.`,
    };
  });
}
