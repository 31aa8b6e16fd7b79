// What every answer to a dispute starts from: the dispute, only if it is the merchant's (another
// merchant's dispute is refused as one that does not exist), and its account's reporting access.
import { db } from "../db";
import type { Mode } from "../mode";
import { invalidParameter } from "../errors";
import { accountReporting, REPORTING_ACCOUNT_SELECT, ReportingUnavailableError, type AccountReporting, type ReportingAccessFor } from "../routing/accounts/reporting-access";

export async function loadDisputeToAnswer({
  merchantId,
  disputeId,
  mode,
  accessFor,
}: {
  merchantId: string;
  disputeId: string;
  /** The merchant API key's mode: a dispute of the other mode is refused as one that does not exist. */
  mode?: Mode;
  accessFor?: ReportingAccessFor;
}) {
  const dispute = await db().dispute.findFirst({
    where: { id: disputeId, merchantId, ...(mode ? { mode } : {}) },
    select: {
      id: true,
      acquirerDisputeId: true,
      status: true,
      dueOn: true,
      answers: true,
      decision: true,
      acquirerAccount: { select: REPORTING_ACCOUNT_SELECT },
    },
  });
  if (!dispute) throw invalidParameter("dispute", "no such dispute");
  let reporting: AccountReporting;
  try {
    reporting = accountReporting(dispute.acquirerAccount, accessFor);
  } catch (error) {
    if (error instanceof ReportingUnavailableError) throw invalidParameter("dispute", `it cannot be answered through the gateway: ${error.message}`);
    throw error;
  }
  return { dispute, reporting };
}
