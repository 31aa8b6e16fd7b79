// What a call needs of its run (the run and its memoized steps), read as one JSON value by a scalar
// subquery: the same text for the run's own read (loadRunForCall) and for the claim of due jobs,
// which reads it with each job it leases so the call needs no statement of its own (issue 37).
import { sql, type Sql } from "./database";
import type { RunStatus } from "./database";

export interface RunForCall {
  id: string;
  functionId: string;
  event: Record<string, unknown>;
  status: RunStatus;
  forceStepPlan: boolean;
  requestVersion: number;
  maxAttempts: number;
  steps: { hashedId: string; memo: unknown }[];
  /**
   * What a Sleep op found by this call counts from: when the run's latest step ended (else when the
   * run started). The function reached the sleep right after that step; the time the executor took
   * to make the discovery call that reports the sleep is not the function's to wait.
   */
  sleepsFrom?: Date;
}

/** The JSON form of RunForCall as the subquery below answers it (times as epoch milliseconds). */
export interface RunForCallJson extends Omit<RunForCall, "steps" | "sleepsFrom"> {
  startedAtMs: number;
  steps: { hashedId: string; result: { memo: unknown }; completedAtMs: number }[] | null;
}

/**
 * The run `runId` (an SQL expression) and its memoized steps as one JSON value, null when no such
 * run exists. Times travel as epoch milliseconds: JSON would carry the columns' times without their
 * zone. A scalar subquery, never turned into a join: it is looked up by its key.
 */
export function runForCallJson(runId: Sql): Sql {
  return sql`(SELECT json_build_object('id', r."id", 'functionId', r."functionId", 'event', r."event", 'status', r."status"::text,
      'forceStepPlan', r."forceStepPlan", 'requestVersion', r."requestVersion", 'maxAttempts', r."maxAttempts",
      'startedAtMs', floor(extract(epoch FROM r."startedAt") * 1000),
      'steps', (SELECT json_agg(json_build_object('hashedId', s."hashedId", 'result', s."result",
                  'completedAtMs', floor(extract(epoch FROM s."completedAt") * 1000)) ORDER BY s."position")
                FROM "InngestStep" s WHERE s."runId" = r."id"))
    FROM "InngestRun" r WHERE r."id" = ${runId})`;
}

export function parseRunForCall(json: RunForCallJson | string | null | undefined): RunForCall | null {
  if (json === null || json === undefined) return null;
  const { startedAtMs, steps, ...rest } = typeof json === "string" ? (JSON.parse(json) as RunForCallJson) : json;
  const stepRows = (steps ?? []).map((step) => ({ ...step, completedAt: new Date(Number(step.completedAtMs)) }));
  return { ...rest, ...memoizedSteps(stepRows, new Date(Number(startedAtMs))) };
}

/** A run's memoized steps as the SDK gets them, and when its latest one ended (else `otherwise`). */
export function memoizedSteps(
  rows: { hashedId: string; result: { memo: unknown }; completedAt: Date }[],
  otherwise: Date,
): Pick<RunForCall, "steps" | "sleepsFrom"> {
  return { steps: rows.map((step) => ({ hashedId: step.hashedId, memo: step.result.memo })), sleepsFrom: latestStepEnd(rows, otherwise) };
}

/** The latest completion among a run's steps, else `otherwise`. */
function latestStepEnd(steps: { completedAt: Date | string }[], otherwise: Date): Date {
  let latest: number | undefined;
  for (const step of steps) {
    const at = new Date(step.completedAt).getTime();
    if (latest === undefined || at > latest) latest = at;
  }
  return latest === undefined ? otherwise : new Date(latest);
}
