// Reads one acquirer account's card-update feed from where the last run stopped (the account's
// cardUpdatesSince, so a restart or another instance goes on from there) and applies each update.
// Called by the cron job lib/jobs/poll-card-updates.ts, one step per account. Applying an update
// twice sends nothing twice (notification ids derive from the update id), so overlapping runs are
// harmless; the cursor only ever moves forward.
import { db } from "../db";
import { processorsWith } from "../acquirers/capabilities";
import { isProcessorReachable } from "../acquirers/registry";
import type { AcquirerName } from "../acquirers/names";
import { pollCardUpdates } from "./poll-card-updates";

/** An account's first read goes back this far. */
export const FIRST_READ_LOOKBACK_MS = 24 * 3600_000;

export interface AdvanceCardUpdateCursorResult {
  accountId: string;
  processor: AcquirerName;
  /** False when the processor has neither a configured address nor a running sandbox. */
  polled: boolean;
  /** ISO time the next read starts from. */
  since: string | null;
  notifications: number;
  error?: string;
}

/**
 * The enabled accounts whose feeds the cron job reads (a disabled account's credentials may be
 * revoked), at acquirers that have an account updater (Bambora North America has none).
 */
export async function listPolledAccounts(): Promise<string[]> {
  const accounts = await db().acquirerAccount.findMany({
    where: { enabled: true, processor: { in: processorsWith("cardUpdates") } },
    select: { id: true },
    orderBy: { createdAt: "asc" },
  });
  return accounts.map((account) => account.id);
}

export async function advanceCardUpdateCursor({
  accountId,
  now = new Date(),
}: {
  accountId: string;
  now?: Date;
}): Promise<AdvanceCardUpdateCursorResult> {
  const account = await db().acquirerAccount.findUniqueOrThrow({
    where: { id: accountId },
    select: { processor: true, mode: true, cardUpdatesSince: true },
  });
  if (!isProcessorReachable(account.processor, account.mode))
    return { accountId, processor: account.processor, polled: false, since: null, notifications: 0 };
  const from = account.cardUpdatesSince ?? new Date(now.getTime() - FIRST_READ_LOOKBACK_MS);
  const result = await pollCardUpdates({ accountId, since: from });
  // Forward only: a slower overlapping run must not move the cursor back.
  await db().acquirerAccount.updateMany({
    where: { id: accountId, OR: [{ cardUpdatesSince: null }, { cardUpdatesSince: { lt: result.latest } }] },
    data: { cardUpdatesSince: result.latest },
  });
  return {
    accountId,
    processor: account.processor,
    polled: true,
    since: result.latest.toISOString(),
    notifications: result.notificationIds.length,
    ...(result.error ? { error: result.error } : {}),
  };
}
