// Background work as the health check sees it. A process with an embedded executor reports on its
// own (heartbeat, lib/inngest/executor-status.ts); in server mode the Inngest server runs the work.
// A web-role process has no executor: workers elsewhere run the work, and from here that shows
// as due work being taken, so it is in error when an event or a job has waited unclaimed too long.
import { db } from "../db";
import { config } from "../env";
import { backgroundStatus, type ComponentStatus } from "../inngest/executor-status";
import { log } from "../observability/logger";
import { runsEmbeddedExecutor } from "../runtime/role";

/** Longer than several poll intervals and a busy executor's queue; shorter than any lease. */
export const UNCLAIMED_WORK_LIMIT_MS = 60_000;

export async function checkBackgroundWork(now = new Date(Date.now())): Promise<ComponentStatus> {
  if (config().inngestMode === "server" || runsEmbeddedExecutor()) return backgroundStatus(now.getTime());
  const before = new Date(now.getTime() - UNCLAIMED_WORK_LIMIT_MS);
  try {
    const [event, job] = await Promise.all([
      db().inngestEvent.findFirst({
        where: { fannedOutAt: null, receivedAt: { lte: before } },
        select: { receivedAt: true },
        orderBy: { receivedAt: "asc" },
      }),
      db().inngestJob.findFirst({
        where: {
          runAt: { lte: before },
          OR: [{ leaseExpiresAt: null }, { leaseExpiresAt: { lte: now } }],
          // Runs held back by their function's concurrency limit wait on purpose.
          run: { status: { notIn: ["completed", "failed"] }, concurrencyLimit: null },
        },
        select: { runAt: true },
        orderBy: { runAt: "asc" },
      }),
    ]);
    const oldest = [event?.receivedAt, job?.runAt].filter((date): date is Date => !!date).sort((a, b) => a.getTime() - b.getTime())[0];
    if (!oldest) return { status: "ok", msg: "" };
    return {
      status: "error",
      msg: `background work is not being taken: due for ${Math.round((now.getTime() - oldest.getTime()) / 1000)} s (are worker processes running?)`,
    };
  } catch (error) {
    log("health").warn({ err: error }, "health check: background work could not be checked");
    return { status: "error", msg: "background work: could not be checked" };
  }
}
