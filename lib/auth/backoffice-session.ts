// Back-office sessions as rows (model BackofficeSession; review 3, M8): the session cookie (a
// next-auth JWT) carries the row's id, and every use of the cookie checks the row. A session ends
// after 15 minutes without a request (PCI DSS v4 8.2.8), 8 hours after sign-in whatever its
// activity, and at sign-out; the JWT alone cannot keep a session alive, because server components
// cannot refresh a cookie on every request.
import { db } from "../db";
import { newId } from "../ids";

export const SESSION_IDLE_TIMEOUT_MS = 15 * 60_000;
export const SESSION_MAX_AGE_MS = 8 * 60 * 60_000;
/** lastSeenAt is written at most this often per session (one write per half minute of activity). */
const LAST_SEEN_RESOLUTION_MS = 30_000;

export async function startBackofficeSession({ userId, now = new Date() }: { userId: string; now?: Date }): Promise<string> {
  const id = newId();
  await db().backofficeSession.create({ data: { id, userId, createdAt: now, lastSeenAt: now }, select: { id: true } });
  return id;
}

/**
 * Whether the session `id` of `userId` is still open now; when it is, this request counts as
 * activity. A session past its idle time or age is ended here.
 */
export async function touchBackofficeSession({ id, userId, now = new Date() }: { id: string; userId: string; now?: Date }): Promise<boolean> {
  const session = await db().backofficeSession.findUnique({ where: { id }, select: { userId: true, createdAt: true, lastSeenAt: true, endedAt: true } });
  if (!session || session.userId !== userId || session.endedAt) return false;
  const idle = now.getTime() - session.lastSeenAt.getTime() > SESSION_IDLE_TIMEOUT_MS;
  const old = now.getTime() - session.createdAt.getTime() > SESSION_MAX_AGE_MS;
  if (idle || old) {
    await db().backofficeSession.updateMany({ where: { id, endedAt: null }, data: { endedAt: now } });
    return false;
  }
  if (now.getTime() - session.lastSeenAt.getTime() > LAST_SEEN_RESOLUTION_MS) {
    await db().backofficeSession.updateMany({ where: { id, endedAt: null }, data: { lastSeenAt: now } });
  }
  return true;
}

/** Sign-out: the session ends now (the user's other sessions end through their session version). */
export async function endBackofficeSession({ id, now = new Date() }: { id: string; now?: Date }): Promise<void> {
  await db().backofficeSession.updateMany({ where: { id, endedAt: null }, data: { endedAt: now } });
}
