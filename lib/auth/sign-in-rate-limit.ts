// Sign-in throttling from the SignInAttempt rows: too many failures for one email from one address
// (someone guessing a password), from one address (someone trying many accounts), or for one email
// from all addresses (a guesser rotating addresses; not applied at an address the user signed in
// from recently) lock that key out for the rest of the window. Successful sign-ins are recorded too,
// for the audit trail and to know a user's addresses.
//
// An attempt is reserved before the password is checked: counting and inserting the attempt (as a
// failure until it is settled) happen in one transaction under a lock per key, so parallel requests
// cannot all see "4 failures" and all go on to verify. On PostgreSQL the lock is a transaction-level
// advisory lock per key; on the embedded PGlite every connection shares one backend, where those locks
// never block, but pglite-socket serves one connection's transaction to its end before any other
// connection's message, so the transaction alone is already exclusive there.
import { db, type Tx } from "../db";
import { newId } from "../ids";

export const SIGN_IN_WINDOW_MS = 15 * 60_000;
/** Failures for one email from one address (someone guessing that user's password from there). */
export const MAX_FAILURES_PER_EMAIL = 5;
/** Failures from one address across accounts (someone trying many accounts). */
export const MAX_FAILURES_PER_IP = 30;
/**
 * Failures for one email from all addresses together (a guesser that rotates addresses). An address
 * the user signed in from within KNOWN_ADDRESS_MS is not held to it, so a stranger cannot lock the
 * user out of their usual place (security review 3, L3).
 */
export const MAX_FAILURES_PER_EMAIL_ALL_ADDRESSES = 20;
export const KNOWN_ADDRESS_MS = 30 * 24 * 60 * 60_000;
/**
 * Failed step-up confirmations of one signed-in user (a borrowed session guessing the password). Only
 * the session's own user can make them, so they are counted apart from sign-ins: a stranger's failed
 * sign-ins never lock an owner out of creating keys or changing the team (security review 4, L2).
 */
export const MAX_STEP_UP_FAILURES = 5;

export interface SignInThrottle {
  limited: boolean;
  /** When the oldest failure that counts leaves the window. */
  retryAt?: Date;
}

export type SignInReservation = { limited: true; retryAt: Date } | { limited: false; attemptId: string };

type ThrottleKey = {
  where: { email?: string; ipAddress?: string; userId?: string; stepUp: boolean };
  max: number;
  lock: string;
  /** The email-wide key: not counted for an address this email signed in from recently. */
  exemptKnownAddress?: { email: string; ipAddress: string };
};

/**
 * A step-up: the user's own step-ups. A sign-in with an address: (email, address), address, and
 * email-wide with the known-address exemption. Without one (no trusted client address): the email
 * alone, as before. Sign-in keys count sign-ins only.
 */
function throttleKeys(email: string, ipAddress: string | null, stepUpUserId?: string): ThrottleKey[] {
  if (stepUpUserId) return [{ where: { userId: stepUpUserId, stepUp: true }, max: MAX_STEP_UP_FAILURES, lock: `step-up:${stepUpUserId}` }];
  if (!ipAddress) return [{ where: { email, stepUp: false }, max: MAX_FAILURES_PER_EMAIL, lock: `sign-in:email:${email}` }];
  return [
    { where: { email, ipAddress, stepUp: false }, max: MAX_FAILURES_PER_EMAIL, lock: `sign-in:email-ip:${email}:${ipAddress}` },
    { where: { ipAddress, stepUp: false }, max: MAX_FAILURES_PER_IP, lock: `sign-in:ip:${ipAddress}` },
    {
      where: { email, stepUp: false },
      max: MAX_FAILURES_PER_EMAIL_ALL_ADDRESSES,
      lock: `sign-in:email:${email}`,
      exemptKnownAddress: { email, ipAddress },
    },
  ];
}

async function limitedKey(client: Tx | ReturnType<typeof db>, keys: ThrottleKey[], now: Date): Promise<SignInThrottle> {
  const since = new Date(now.getTime() - SIGN_IN_WINDOW_MS);
  for (const key of keys) {
    if (key.exemptKnownAddress) {
      const known = await client.signInAttempt.findFirst({
        where: { ...key.exemptKnownAddress, succeeded: true, stepUp: false, createdAt: { gt: new Date(now.getTime() - KNOWN_ADDRESS_MS) } },
        select: { id: true },
      });
      if (known) continue;
    }
    const failures = await client.signInAttempt.findMany({
      where: { ...key.where, succeeded: false, createdAt: { gt: since } },
      orderBy: { createdAt: "desc" },
      take: key.max,
      select: { createdAt: true },
    });
    if (failures.length >= key.max) {
      const oldestCounted = failures[failures.length - 1]!.createdAt;
      return { limited: true, retryAt: new Date(oldestCounted.getTime() + SIGN_IN_WINDOW_MS) };
    }
  }
  return { limited: false };
}

/** Whether the email (or IP address) is locked out now; read only (the reservation below is what guards). */
export async function checkSignInThrottle(options: { email: string; ipAddress: string | null; now?: Date; tx?: Tx }): Promise<SignInThrottle> {
  return limitedKey(options.tx ?? db(), throttleKeys(options.email, options.ipAddress), options.now ?? new Date());
}

/**
 * Counts the failures of each key and, when none is at its limit, records this attempt as a failure
 * in the same locked transaction. The caller settles it with `settleSignInAttempt` once it knows.
 */
export async function reserveSignInAttempt(options: {
  email: string;
  ipAddress: string | null;
  userId?: string | null;
  /** A signed-in user's step-up (then `userId` is required): counted against that user's step-ups only. */
  stepUp?: boolean;
  now?: Date;
}): Promise<SignInReservation> {
  const now = options.now ?? new Date();
  if (options.stepUp && !options.userId) throw new Error("a step-up attempt needs its user");
  const keys = throttleKeys(options.email, options.ipAddress, options.stepUp ? options.userId! : undefined);
  return db().$transaction(async (tx) => {
    // Always in the same order ((email, address), address, email), so two transactions cannot wait for each other.
    for (const key of keys) await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtextextended(${key.lock}, 0))`;
    const throttle = await limitedKey(tx, keys, now);
    if (throttle.limited) return { limited: true as const, retryAt: throttle.retryAt! };
    const attemptId = newId();
    await tx.signInAttempt.create({
      data: {
        id: attemptId,
        email: options.email,
        userId: options.userId ?? null,
        ipAddress: options.ipAddress,
        succeeded: false,
        stepUp: options.stepUp ?? false,
        createdAt: now,
      },
      select: { id: true },
    });
    return { limited: false as const, attemptId };
    // A person is waiting on this answer: a start delayed by a burst of sign-ins (they queue on one
    // lock, and the embedded database serves one transaction at a time) waits, up to 10 s, rather
    // than failing at Prisma's default 2 s.
  }, { maxWait: 10_000, timeout: 10_000 });
}

/**
 * "succeeded": the attempt signed in; "failed": it stays a failure (with the user it was for);
 * "not-counted": it was neither (the right password without the one-time code yet), and is removed.
 */
export async function settleSignInAttempt(options: { attemptId: string; outcome: "succeeded" | "failed" | "not-counted"; userId?: string | null }): Promise<void> {
  if (options.outcome === "not-counted") {
    await db().signInAttempt.deleteMany({ where: { id: options.attemptId } });
    return;
  }
  await db().signInAttempt.updateMany({
    where: { id: options.attemptId },
    data: { succeeded: options.outcome === "succeeded", ...(options.userId ? { userId: options.userId } : {}) },
  });
}
