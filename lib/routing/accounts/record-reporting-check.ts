// The reporting check state shown on an acquirer account (issue 40): every call of the account's
// reporting API (a poll, an answer to a dispute, `accounts test`) records here whether it worked, so
// credentials the acquirer refuses are shown as failing instead of being skipped in silence.
import { ReportingApiError } from "../../acquirers/contract";
import { db } from "../../db";

/** What the account shows for a failed call: refused credentials said as such, anything else as it came. */
export function reportingProblemOf(error: unknown): string {
  if (error instanceof ReportingApiError && error.credentialsRefused)
    return `credentials refused${error.status ? ` (HTTP ${error.status})` : ""}: ${error.message}`;
  return error instanceof Error ? error.message : String(error);
}

/** Records one call's outcome: a success clears the problem and the count; a failure names it and counts it. Returns the failures in a row. */
export async function recordReportingCheck({
  accountId,
  problem,
  now = new Date(),
}: {
  accountId: string;
  /** null: the call worked. */
  problem: string | null;
  now?: Date;
}): Promise<number> {
  const row = await db().acquirerAccount.update({
    where: { id: accountId },
    data:
      problem === null
        ? { reportingCheckedAt: now, reportingProblem: null, reportingFailures: 0 }
        : { reportingCheckedAt: now, reportingProblem: problem.slice(0, 500), reportingFailures: { increment: 1 } },
    select: { reportingFailures: true },
  });
  return row.reportingFailures;
}
