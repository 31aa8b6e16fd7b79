// Recent runs of the embedded executor, for the CLI (`runs list`) and the back office.
import { z } from "zod";
import { db } from "../db";
import type { PrismaClient } from "../generated/prisma/client";
import { InngestRunStatus } from "../generated/prisma/enums";
import { inngest } from "./client";

export const listRunsFilterSchema = z.object({
  limit: z.coerce.number().int().min(1).max(500).default(20),
  status: z.enum(InngestRunStatus).optional(),
  /** The function's id with or without the app id prefix. */
  functionId: z.string().min(1).optional(),
});
export type ListRunsFilter = z.input<typeof listRunsFilterSchema>;

export interface RunSummary {
  id: string;
  /** The function's id as written in createFunction. */
  functionId: string;
  eventName: string | null;
  status: InngestRunStatus;
  attempts: number;
  startedAt: Date;
  endedAt: Date | null;
  /** When the run continues next (a sleep or a retry), while it is not finished. */
  nextWakeAt: Date | null;
  lastError: string | null;
  stepCount: number;
}

export async function listRuns(options: ListRunsFilter & { database?: PrismaClient } = {}): Promise<RunSummary[]> {
  const filter = listRunsFilterSchema.parse(options);
  const prefix = `${inngest.id}-`;
  const functionId = filter.functionId && !filter.functionId.startsWith(prefix) ? `${prefix}${filter.functionId}` : filter.functionId;
  const runs = await (options.database ?? db()).inngestRun.findMany({
    where: { status: filter.status, functionId },
    orderBy: [{ startedAt: "desc" }, { id: "desc" }],
    take: filter.limit,
    select: {
      id: true,
      functionId: true,
      event: true,
      status: true,
      attempts: true,
      startedAt: true,
      endedAt: true,
      nextWakeAt: true,
      lastError: true,
      _count: { select: { steps: true } },
    },
  });
  return runs.map((run) => ({
    id: run.id,
    functionId: run.functionId.startsWith(prefix) ? run.functionId.slice(prefix.length) : run.functionId,
    eventName: typeof (run.event as { name?: unknown }).name === "string" ? (run.event as { name: string }).name : null,
    status: run.status,
    attempts: run.attempts,
    startedAt: run.startedAt,
    endedAt: run.endedAt,
    nextWakeAt: run.status === "running" || run.status === "sleeping" || run.status === "queued" ? run.nextWakeAt : null,
    lastError: run.lastError,
    stepCount: run._count.steps,
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
