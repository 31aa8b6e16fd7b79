// What an answer of the SDK's serve handler means for a run: pure translation of the protocol
// (call-function.ts reads the answer; run-progress.ts applies the result).
import { parseRetryAfter, retryDelayMs } from "./backoff";
import type { CallOutcome } from "./call-function";
import type { ClaimedJob } from "./claims";
import { sleepWakeTime } from "./duration";
import type { OutgoingOp, SerializedError } from "./protocol";
import { describeError, type JobResult, type RunForCall } from "./run-progress";

/** What an answer of the SDK means for the run (the server's rules, protocol note §2-§6). */
export function interpretOutcome(options: {
  job: ClaimedJob;
  run: RunForCall;
  outcome: CallOutcome;
  now: Date;
  retryJitterMs: number;
}): JobResult {
  const { job, run, outcome, now, retryJitterMs } = options;
  const requestVersion = outcome.kind === "error" ? undefined : outcome.requestVersion;
  if (outcome.kind === "complete") return { complete: { output: outcome.output }, requestVersion };

  if (outcome.kind === "error") {
    if (!outcome.retriable || job.attempt + 1 >= run.maxAttempts) {
      // A memoized step error that the function did not catch comes back as a 400 with that
      // same error: the attempts were counted when the step failed.
      const reraised = run.steps.some((step) => isSameError(step.memo, outcome.error));
      return { fail: { error: outcome.error }, callError: reraised ? undefined : describeError(outcome.error) };
    }
    return { retryAt: retryTime(job.attempt, outcome.retryAfter, now, retryJitterMs), callError: describeError(outcome.error) };
  }

  const result: JobResult = { requestVersion, memoize: [], schedule: [] };
  if (outcome.ops.length > 1) result.forceStepPlan = true;
  for (const op of outcome.ops) {
    switch (op.op) {
      case "StepRun":
        result.memoize?.push({ hashedId: op.id, name: stepName(op), memo: { data: op.data ?? null } });
        break;
      case "StepFailed":
        result.memoize?.push({ hashedId: op.id, name: stepName(op), memo: { error: stepError(op) } });
        result.callError = describeError(stepError(op));
        break;
      case "StepError": {
        // A retriable step error: the same call again, one attempt later (not memoized).
        const error = stepError(op);
        if (job.attempt + 1 >= run.maxAttempts) {
          result.memoize?.push({ hashedId: op.id, name: stepName(op), memo: { error } });
          result.callError = describeError(error);
          break;
        }
        return {
          requestVersion,
          forceStepPlan: result.forceStepPlan,
          retryAt: retryTime(job.attempt, outcome.retryAfter, now, retryJitterMs),
          callError: describeError(error),
        };
      }
      case "StepPlanned":
        if (op.id !== job.hashedId) result.schedule?.push({ kind: "step", hashedId: op.id, name: stepName(op), runAt: now });
        break;
      case "Sleep": {
        let wakeAt: Date;
        try {
          // Counted from when the function reached the sleep (the end of the step before it),
          // never from a time later than now: step.sleep("3s") after a failed notification
          // attempt wakes 3 s after that attempt, not 3 s plus this discovery call (spec 6.2).
          const from = run.sleepsFrom && run.sleepsFrom.getTime() < now.getTime() ? run.sleepsFrom : now;
          wakeAt = sleepWakeTime(op.name ?? "", from);
        } catch (error) {
          return { fail: { error: { name: "UnsupportedOp", message: (error as Error).message } } };
        }
        result.schedule?.push({ kind: "sleep", hashedId: op.id, name: stepName(op), runAt: wakeAt });
        break;
      }
      case "RunComplete":
        return { complete: { output: op.data ?? null }, requestVersion };
      default:
        return {
          fail: {
            error: {
              name: "UnsupportedOp",
              message: `the embedded executor does not support ${op.op} (step ${stepName(op) ?? op.id}); run this function on an Inngest server`,
            },
          },
        };
    }
  }
  return result;
}

function retryTime(attempt: number, retryAfter: string | null, now: Date, jitterMs: number): Date {
  return parseRetryAfter(retryAfter, now) ?? new Date(now.getTime() + retryDelayMs({ attempt, jitterMs }));
}

function stepName(op: OutgoingOp): string | null {
  return op.displayName ?? op.userland?.id ?? op.name ?? null;
}

function stepError(op: OutgoingOp): SerializedError {
  const error = op.error as SerializedError | undefined;
  return error && typeof error === "object" ? error : { name: "Error", message: "step failed" };
}

function isSameError(memo: unknown, error: SerializedError): boolean {
  if (typeof memo !== "object" || memo === null || !("error" in memo)) return false;
  const memoized = (memo as { error: SerializedError }).error;
  return memoized?.name === error.name && memoized?.message === error.message;
}
