// Recent runs of the embedded executor, for the CLI (`runs list`) and the back office.
import { z } from "zod";
import { RUN_STATUSES, type ExecutorDatabase, type RunStatus } from "./database";

export const listRunsFilterSchema = z.object({
  limit: z.coerce.number().int().min(1).max(500).default(20),
  status: z.enum(RUN_STATUSES).optional(),
  /** The function's id with or without the app id prefix. */
  functionId: z.string().min(1).optional(),
});
export type ListRunsFilter = z.input<typeof listRunsFilterSchema>;

export interface RunSummary {
  id: string;
  /** The function's id as written in createFunction. */
  functionId: string;
  eventName: string | null;
  status: RunStatus;
  attempts: number;
  startedAt: Date;
  endedAt: Date | null;
  /** When the run continues next (a sleep or a retry), while it is not finished. */
  nextWakeAt: Date | null;
  lastError: string | null;
  stepCount: number;
}

/** The latest runs, newest first; `appId` is the SDK client's id, left out of function ids. */
export async function listRuns(options: ListRunsFilter & { database: ExecutorDatabase; appId: string }): Promise<RunSummary[]> {
  const filter = listRunsFilterSchema.parse(options);
  const prefix = `${options.appId}-`;
  const functionId = filter.functionId && !filter.functionId.startsWith(prefix) ? `${prefix}${filter.functionId}` : filter.functionId;
  const runs = await options.database.$queryRaw<
    (Omit<RunSummary, "eventName" | "stepCount"> & { eventName: unknown; stepCount: number })[]
  >`
    SELECT r."id", r."functionId", r."event"->'name' AS "eventName", r."status"::text AS "status", r."attempts",
      r."startedAt", r."endedAt", r."nextWakeAt", r."lastError",
      (SELECT count(*)::int FROM "InngestStep" s WHERE s."runId" = r."id") AS "stepCount"
    FROM "InngestRun" r
    WHERE (${filter.status ?? null}::text IS NULL OR r."status"::text = ${filter.status ?? null})
      AND (${functionId ?? null}::text IS NULL OR r."functionId" = ${functionId ?? null})
    ORDER BY r."startedAt" DESC, r."id" DESC
    LIMIT ${filter.limit}`;
  return runs.map((run) => ({
    id: run.id,
    functionId: run.functionId.startsWith(prefix) ? run.functionId.slice(prefix.length) : run.functionId,
    eventName: typeof run.eventName === "string" ? run.eventName : null,
    status: run.status,
    attempts: run.attempts,
    startedAt: new Date(run.startedAt),
    endedAt: run.endedAt ? new Date(run.endedAt) : null,
    nextWakeAt:
      run.status === "running" || run.status === "sleeping" || run.status === "queued" ? run.nextWakeAt && new Date(run.nextWakeAt) : null,
    lastError: run.lastError,
    stepCount: run.stepCount,
  }));
}

/** One line per run, for a terminal. */
export function formatRunsTable(runs: RunSummary[]): string {
  if (runs.length === 0) return "no runs";
  const header = ["RUN", "FUNCTION", "STATUS", "ATTEMPTS", "STEPS", "STARTED", "NEXT WAKE-UP", "LAST ERROR"];
  const rows = runs.map((run) => [
    run.id,
    run.functionId,
    run.status,
    String(run.attempts),
    String(run.stepCount),
    run.startedAt.toISOString(),
    run.nextWakeAt?.toISOString() ?? "-",
    run.lastError ? run.lastError.replace(/\s+/g, " ").slice(0, 80) : "-",
  ]);
  const widths = header.map((title, column) => Math.max(title.length, ...rows.map((row) => (row[column] as string).length)));
  return [header, ...rows]
    .map((row) =>
      row
        .map((cell, column) => cell.padEnd(widths[column] as number))
        .join("  ")
        .trimEnd(),
    )
    .join("\n");
}
