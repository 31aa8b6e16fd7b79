// Reads one processor's card-update feed from where the last run stopped (the CardUpdateCursor
// row, so a restart or another instance goes on from there) and applies each update. Called by the
// cron job lib/jobs/poll-card-updates.ts, one step per processor. Applying an update twice sends
// nothing twice (notification ids derive from the update id), so overlapping runs are harmless;
// the cursor only ever moves forward.
import { db } from "../db";
import { isProcessorConfigured, sandboxUrl } from "../processors/registry";
import type { ProcessorName } from "../processors/types";
import { pollCardUpdates } from "./poll-card-updates";

/** A processor's first read goes back this far. */
export const FIRST_READ_LOOKBACK_MS = 24 * 3600_000;

export interface AdvanceCardUpdateCursorResult {
  processor: ProcessorName;
  /** False when the processor has neither a configured address nor a running sandbox. */
  polled: boolean;
  /** ISO time the next read starts from. */
  since: string | null;
  notifications: number;
  error?: string;
}

export async function advanceCardUpdateCursor({
  processor,
  now = new Date(),
}: {
  processor: ProcessorName;
  now?: Date;
}): Promise<AdvanceCardUpdateCursorResult> {
  if (!isProcessorConfigured(processor) && !sandboxUrl(processor)) return { processor, polled: false, since: null, notifications: 0 };
  const cursor = await db().cardUpdateCursor.findUnique({ where: { processor }, select: { since: true } });
  const from = cursor?.since ?? new Date(now.getTime() - FIRST_READ_LOOKBACK_MS);
  const result = await pollCardUpdates({ since: { [processor]: from }, processors: [processor] });
  const latest = result.latest[processor] ?? from;
  // Forward only: a slower overlapping run must not move the cursor back.
  await db().cardUpdateCursor.upsert({
    where: { processor },
    create: { processor, since: latest },
    update: {},
    select: { processor: true },
  });
  await db().cardUpdateCursor.updateMany({ where: { processor, since: { lt: latest } }, data: { since: latest } });
  const error = result.errors[processor];
  return {
    processor,
    polled: true,
    since: latest.toISOString(),
    notifications: result.notificationIds.length,
    ...(error ? { error } : {}),
  };
}
