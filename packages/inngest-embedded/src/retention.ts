// Retention: finished runs and their events are deleted once they are older than the retention.
import { utc, type ExecutorDatabase } from "./database";

/**
 * Deletes finished runs (with their steps) that ended before `before`, and events fanned out
 * before then that no remaining run refers to, at most `batch` of each per call. Returns how
 * many runs and events went.
 */
export async function pruneHistory(options: {
  database: ExecutorDatabase;
  before: Date;
  batch?: number;
}): Promise<{ runs: number; events: number }> {
  const batch = options.batch ?? 1_000;
  const runs = await options.database.$executeRaw`
    DELETE FROM "InngestRun" WHERE "id" IN (
      SELECT "id" FROM "InngestRun"
      WHERE "status" IN ('completed', 'failed') AND "endedAt" < ${utc(options.before)}
      LIMIT ${batch})`;
  const events = await options.database.$executeRaw`
    DELETE FROM "InngestEvent" WHERE "id" IN (
      SELECT e."id" FROM "InngestEvent" e
      WHERE e."fannedOutAt" < ${utc(options.before)}
        AND NOT EXISTS (SELECT 1 FROM "InngestRun" r WHERE r."eventId" = e."id")
      LIMIT ${batch})`;
  return { runs, events };
}
