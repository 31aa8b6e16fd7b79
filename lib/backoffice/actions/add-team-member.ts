import { z } from "zod";
import { db } from "../../db";
import { assertCan, type Actor } from "../../auth/actor";
import { confirmIdentity } from "../../auth/confirm-identity";
import { newPasswordSchema } from "../../auth/password";
import { createUser } from "../../users/create-user";
import { recordAudit } from "../../audit/audit";

export const addTeamMemberInput = z.object({
  email: z.string().trim().toLowerCase().pipe(z.email("Enter a valid email address")),
  name: z.string().trim().min(1, "Enter the person's name").max(100, "Use at most 100 characters"),
  password: newPasswordSchema,
  role: z.enum(["OWNER", "DEVELOPER", "VIEWER"], { error: "Choose a role" }),
});

/** Adds a back-office user to the actor's merchant (owners only) with a first password to hand over; asks for the owner's own password again (step-up). */
export async function addTeamMember({ actor, input }: { actor: Actor; input: unknown }) {
  assertCan(actor, "team:write");
  const data = addTeamMemberInput.parse(input);
  await confirmIdentity({ userId: actor.userId, input });
  return db().$transaction(async (tx) => {
    const user = await createUser({ ...data, merchantId: actor.merchantId, tx });
    await recordAudit(tx, { actor, action: "team.user_added", target: user.id, details: { email: user.email, role: user.role } });
    return user;
  });
}
