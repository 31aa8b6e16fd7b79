"use server";
import { revalidatePath } from "next/cache";
import { requireActor } from "@/lib/auth/session";
import { addTeamMember } from "@/lib/backoffice/actions/add-team-member";
import { changeTeamMember } from "@/lib/backoffice/actions/change-team-member";
import { formObject, runAction, type ActionState } from "@/lib/backoffice/action-result";
import { resetTeamMemberPassword } from "@/lib/backoffice/actions/reset-team-member-password";
import { stepUpRequest } from "../form-request";
import { setLiveModeRole } from "@/lib/backoffice/actions/set-live-mode-role";
import { inviteTeamMember } from "@/lib/backoffice/actions/invite-team-member";
import { revokeInvitation } from "@/lib/backoffice/actions/revoke-invitation";
import { UserFacingError } from "@/lib/backoffice/action-result";
import { MailNotConfiguredError } from "@/lib/mail/send-mail";

export async function setLiveModeRoleAction(_previous: ActionState, formData: FormData): Promise<ActionState> {
  return runAction(async () => {
    const { liveModeMinRole } = await setLiveModeRole(await stepUpRequest(formData));
    revalidatePath("/backoffice/settings/team");
    return { message: liveModeMinRole === "OWNER" ? "Only owners may act in live mode now." : "Owners and developers may act in live mode." };
  });
}

export async function addTeamMemberAction(_previous: ActionState, formData: FormData): Promise<ActionState> {
  return runAction(async () => {
    const actor = await requireActor();
    const user = await addTeamMember({ actor, input: formObject(formData) });
    revalidatePath("/backoffice/settings/team");
    return { message: `${user.email} can now sign in with the password you chose.` };
  });
}

export async function changeTeamMemberAction(_previous: ActionState, formData: FormData): Promise<ActionState> {
  return runAction(async () => {
    const actor = await requireActor();
    const result = await changeTeamMember({ actor, input: formObject(formData) });
    revalidatePath("/backoffice/settings/team");
    return { message: result.removed ? `${result.email} was removed.` : `${result.email} is now ${result.role.toLowerCase()}.` };
  });
}

export async function resetTeamMemberPasswordAction(_previous: ActionState<{ temporaryPassword: string }>, formData: FormData): Promise<ActionState<{ temporaryPassword: string }>> {
  return runAction(async () => {
    const { email, temporaryPassword } = await resetTeamMemberPassword(await stepUpRequest(formData));
    return { message: `New temporary password for ${email}. It is shown only now: hand it over securely and ask them to change it on their account page.`, data: { temporaryPassword } };
  });
}

export async function inviteTeamMemberAction(_previous: ActionState, formData: FormData): Promise<ActionState> {
  return runAction(async () => {
    const actor = await requireActor();
    try {
      const invited = await inviteTeamMember({ actor, input: formObject(formData) });
      return { message: `Invitation sent to ${invited.email}: the link works once, for 72 hours.` };
    } catch (error) {
      if (error instanceof MailNotConfiguredError) throw new UserFacingError(`${error.message}. Meanwhile, add the user with a first password below.`);
      throw error;
    }
  });
}

export async function revokeInvitationAction(_previous: ActionState, formData: FormData): Promise<ActionState> {
  return runAction(async () => {
    const actor = await requireActor();
    const { email } = await revokeInvitation({ actor, input: formObject(formData) });
    revalidatePath("/backoffice/settings/team");
    return { message: `The invitation of ${email} is revoked: its link no longer works.` };
  });
}
