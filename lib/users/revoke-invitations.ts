// Withdrawing pending invitations (security review 4, M2): an invitation is the power of the owner who
// sent it, so it ends when that owner is removed or loses the team permission, and an owner may
// withdraw any pending one (a wrong address, a change of mind). A revoked link is refused like a used
// one (lib/users/user-tokens.ts). The caller records the audit rows in the same transaction.
import type { Tx } from "../db";
import type { UserRole } from "../generated/prisma/enums";

export interface RevokedInvitation {
  id: string;
  email: string;
  role: UserRole | null;
}

/**
 * Revokes the merchant's pending invitations sent by `sentBy`, or the one with id `invitationId`;
 * returns what was revoked (nothing when none was pending). `revokedBy`: the owner who withdrew it,
 * null when it ends with its sender.
 */
export async function revokePendingInvitations(
  tx: Tx,
  options: { merchantId: string; revokedBy: string | null; now?: Date } & ({ sentBy: string } | { invitationId: string }),
): Promise<RevokedInvitation[]> {
  const now = options.now ?? new Date();
  const which = "sentBy" in options ? options.sentBy : options.invitationId;
  const column = "sentBy" in options ? "createdByUserId" : "id";
  // Two statements rather than one with a dynamic column name: each is a plain, indexed condition.
  const rows =
    column === "createdByUserId"
      ? await tx.$queryRaw<RevokedInvitation[]>`
          UPDATE "UserToken" SET "revokedAt" = ${now}, "revokedByUserId" = ${options.revokedBy}
          WHERE "merchantId" = ${options.merchantId} AND "kind" = 'invitation' AND "createdByUserId" = ${which}
            AND "usedAt" IS NULL AND "revokedAt" IS NULL AND "expiresAt" > ${now}
          RETURNING "id", "email", "role"::text AS "role"`
      : await tx.$queryRaw<RevokedInvitation[]>`
          UPDATE "UserToken" SET "revokedAt" = ${now}, "revokedByUserId" = ${options.revokedBy}
          WHERE "merchantId" = ${options.merchantId} AND "kind" = 'invitation' AND "id" = ${which}
            AND "usedAt" IS NULL AND "revokedAt" IS NULL AND "expiresAt" > ${now}
          RETURNING "id", "email", "role"::text AS "role"`;
  return rows;
}
