"use server";
// Server actions of a dispute's page (owners and developers): each one the signed-in actor, then one
// use case (lib/backoffice/actions/) that checks the role and the dispute and sends the answer.
import { revalidatePath } from "next/cache";
import { requireActor } from "@/lib/auth/session";
import { formObject, runAction, type ActionState } from "@/lib/backoffice/action-result";
import { commentDispute } from "@/lib/backoffice/actions/comment-dispute";
import { decideDispute } from "@/lib/backoffice/actions/decide-dispute";
import { uploadDisputeEvidence } from "@/lib/backoffice/actions/upload-dispute-evidence";

const page = (disputeId: string) => `/backoffice/disputes/${disputeId}`;

export async function uploadDisputeEvidenceAction(_previous: ActionState, formData: FormData): Promise<ActionState> {
  return runAction(async () => {
    const input = formObject(formData);
    const files = formData.getAll("files").filter((value): value is File => typeof value !== "string");
    const { evidenceIds } = await uploadDisputeEvidence({ actor: await requireActor(), input, files });
    revalidatePath(page(input.disputeId ?? ""));
    return { message: `${evidenceIds.length === 1 ? "The file was" : `${evidenceIds.length} files were`} sent to the acquirer.` };
  });
}

export async function commentDisputeAction(_previous: ActionState, formData: FormData): Promise<ActionState> {
  return runAction(async () => {
    const input = formObject(formData);
    await commentDispute({ actor: await requireActor(), input });
    revalidatePath(page(input.disputeId ?? ""));
    return { message: "The comment was sent to the acquirer." };
  });
}

export async function decideDisputeAction(_previous: ActionState, formData: FormData): Promise<ActionState> {
  return runAction(async () => {
    const input = formObject(formData);
    const { decision, status } = await decideDispute({ actor: await requireActor(), input });
    revalidatePath(page(input.disputeId ?? ""));
    return { message: `${decision === "refute" ? "Refuted" : "Accepted"}: the acquirer now reports the dispute as ${status}.` };
  });
}
