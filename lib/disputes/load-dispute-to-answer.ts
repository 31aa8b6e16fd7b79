// What every answer to a dispute starts from: the dispute, only if it is the merchant's (another
// merchant's dispute is refused as one that does not exist), and its account's reporting access.
import { db } from "../db";
import type { Mode } from "../mode";
import { invalidParameter } from "../errors";
import { accountReporting, REPORTING_ACCOUNT_SELECT, ReportingUnavailableError, type AccountReporting, type ReportingAccessFor } from "../routing/accounts/reporting-access";

/** What every answer to a dispute is asked with: whose dispute, who acts, and the tests' fake client and clock. */
export interface DisputeAction {
  merchantId: string;
  disputeId: string;
  /** The back-office user (null: the merchant API or the operator). */
  userId?: string | null;
  /** The merchant API's key that asked (the audit's actor when there is no user). */
  apiKeyId?: string | null;
  /** The merchant API key's mode: a dispute of the other mode is refused as one that does not exist. */
  mode?: Mode;
  accessFor?: ReportingAccessFor;
  now?: Date;
}

export async function loadDisputeToAnswer({ merchantId, disputeId, mode, accessFor }: Pick<DisputeAction, "merchantId" | "disputeId" | "mode" | "accessFor">) {
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
