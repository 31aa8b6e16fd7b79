// Sign-in throttling from the SignInAttempt rows: too many failures for one email address (someone
// guessing a password) or from one IP address (someone trying many accounts) lock that key out
// for the rest of the window. Successful sign-ins are recorded too, for the audit trail.
import { db, type Tx } from "../db";
import { newId } from "../ids";

export const SIGN_IN_WINDOW_MS = 15 * 60_000;
export const MAX_FAILURES_PER_EMAIL = 5;
export const MAX_FAILURES_PER_IP = 30;

export interface SignInThrottle {
  limited: boolean;
  /** When the oldest failure that counts leaves the window. */
  retryAt?: Date;
}

export async function checkSignInThrottle(options: { email: string; ipAddress: string | null; now?: Date; tx?: Tx }): Promise<SignInThrottle> {
  const client = options.tx ?? db();
  const now = options.now ?? new Date();
  const since = new Date(now.getTime() - SIGN_IN_WINDOW_MS);
  const keys: { where: { email: string } | { ipAddress: string }; max: number }[] = [{ where: { email: options.email }, max: MAX_FAILURES_PER_EMAIL }];
  if (options.ipAddress) keys.push({ where: { ipAddress: options.ipAddress }, max: MAX_FAILURES_PER_IP });
  for (const key of keys) {
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

export async function recordSignInAttempt(options: { email: string; userId: string | null; ipAddress: string | null; succeeded: boolean; tx?: Tx }): Promise<void> {
  const client = options.tx ?? db();
  await client.signInAttempt.create({
    data: { id: newId(), email: options.email, userId: options.userId, ipAddress: options.ipAddress, succeeded: options.succeeded },
  });
}
