// Retention of the records requests leave behind (security review 3, L2): without it anyone could fill
// the disk with them. Request-log rows (the Developers area's) are kept 90 days; failed sign-in
// attempts a day (the throttle looks back 15 minutes); successful ones 30 days (they tell the
// throttle a user's usual addresses). The audit log is not touched here: it is kept 12 months and
// its table refuses earlier deletes. Run daily by a cron function (lib/jobs/prune-request-records.ts).
import { db } from "../db";
import { KNOWN_ADDRESS_MS } from "../auth/sign-in-rate-limit";

export const API_REQUEST_RETENTION_MS = 90 * 24 * 60 * 60_000;
export const FAILED_SIGN_IN_RETENTION_MS = 24 * 60 * 60_000;

export async function pruneRequestRecords({ now = new Date() }: { now?: Date } = {}): Promise<{ apiRequests: number; signInAttempts: number }> {
  const apiRequests = await db().apiRequest.deleteMany({ where: { createdAt: { lt: new Date(now.getTime() - API_REQUEST_RETENTION_MS) } } });
  const failed = await db().signInAttempt.deleteMany({ where: { succeeded: false, createdAt: { lt: new Date(now.getTime() - FAILED_SIGN_IN_RETENTION_MS) } } });
  const succeeded = await db().signInAttempt.deleteMany({ where: { succeeded: true, createdAt: { lt: new Date(now.getTime() - KNOWN_ADDRESS_MS) } } });
  return { apiRequests: apiRequests.count, signInAttempts: failed.count + succeeded.count };
}
