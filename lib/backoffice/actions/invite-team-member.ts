// Settings → Team: an owner invites a person by email (issue 28; Stripe's and GitHub's team
// invitations) instead of choosing a first password for them. The link is single-use and valid 72
// hours; the person chooses their own name and password (lib/users/accept-invitation.ts). Needs
// mail (SMTP_URL in production); asks for the owner's password again; audited.
import { z } from "zod";
import { db } from "../../db";
import { assertCan, type Actor } from "../../auth/actor";
import { confirmIdentity } from "../../auth/confirm-identity";
import { config } from "../../env";
import { newId } from "../../ids";
import { MailNotConfiguredError, mailAvailable, sendMail } from "../../mail/send-mail";
import { TOKEN_LIFETIME_MS, newUserToken } from "../../users/user-tokens";
import { UserFacingError } from "../action-result";
import { recordAudit } from "../../audit/audit";

export const inviteTeamMemberInput = z.object({
  email: z.string().trim().toLowerCase().pipe(z.email("Enter a valid email address")),
  role: z.enum(["OWNER", "DEVELOPER", "VIEWER"], { error: "Choose a role" }),
});

export async function inviteTeamMember({ actor, input, now = new Date() }: { actor: Actor; input: unknown; now?: Date }) {
  assertCan(actor, "team:write");
  const { email, role } = inviteTeamMemberInput.parse(input);
  if (!mailAvailable()) throw new MailNotConfiguredError();
  await confirmIdentity({ userId: actor.userId, input });
  if (await db().user.findUnique({ where: { email }, select: { id: true } })) {
    throw new z.ZodError([{ code: "custom", path: ["email"], message: "A user with this email address exists already", input: email }]);
  }
  const { token, tokenHash } = newUserToken();
  const expiresAt = new Date(now.getTime() + TOKEN_LIFETIME_MS.invitation);
  const merchant = await db().merchant.findUniqueOrThrow({ where: { id: actor.merchantId }, select: { name: true } });
  const id = newId();
  await db().$transaction(async (tx) => {
    await tx.userToken.create({
      data: { id, merchantId: actor.merchantId, kind: "invitation", email, tokenHash, role, createdByUserId: actor.userId, expiresAt },
      select: { id: true },
    });
    await recordAudit(tx, { actor, action: "team.invitation_sent", target: email, details: { email, role, expiresAt: expiresAt.toISOString() } });
  });
  const link = `${config().backofficeBaseUrl}/backoffice/invitation/${token}`;
  try {
    await sendMail({
      to: email,
      subject: `You are invited to ${merchant.name} on Card Payment Service`,
      text: `You are invited to the back office of ${merchant.name} as ${role.toLowerCase()}.\n\nChoose your name and password here (the link works once, for 72 hours):\n${link}\n\nIf you did not expect this, ignore this mail.`,
    });
  } catch (error) {
    // A link that never reached anyone must not stay usable.
    await db().userToken.update({ where: { id }, data: { usedAt: new Date() }, select: { id: true } });
    throw new UserFacingError(`The invitation could not be sent (${error instanceof Error ? error.message : "mail error"}); nothing was kept, try again.`);
  }
  return { email, role, expiresAt };
}
