// Settings → Team's pending invitations (security review 4, M2): links that could still make someone
// a member, so that owners see them and can withdraw them.
import { db } from "../../db";
import { pendingToken } from "../../users/user-tokens";

export interface PendingInvitation {
  id: string;
  email: string;
  role: "OWNER" | "DEVELOPER" | "VIEWER";
  /** The sender's address (null: a sender no longer in the team, whose invitations are revoked anyway). */
  invitedBy: string | null;
  createdAt: Date;
  expiresAt: Date;
}

export async function listPendingInvitations({ merchantId, now = new Date() }: { merchantId: string; now?: Date }): Promise<PendingInvitation[]> {
  const rows = await db().userToken.findMany({
    where: { merchantId, kind: "invitation", ...pendingToken(now) },
    orderBy: { createdAt: "desc" },
    select: { id: true, email: true, role: true, createdByUserId: true, createdAt: true, expiresAt: true },
  });
  const senderIds = [...new Set(rows.flatMap((row) => (row.createdByUserId ? [row.createdByUserId] : [])))];
  const senders = new Map(
    (await db().user.findMany({ where: { id: { in: senderIds }, merchantId }, select: { id: true, email: true } })).map((user) => [user.id, user.email]),
  );
  return rows.map((row) => ({
    id: row.id,
    email: row.email,
    role: row.role ?? "VIEWER",
    invitedBy: row.createdByUserId ? (senders.get(row.createdByUserId) ?? null) : null,
    createdAt: row.createdAt,
    expiresAt: row.expiresAt,
  }));
}
