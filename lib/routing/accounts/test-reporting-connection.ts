// "Test connection" of an account's reporting API credentials (issue 40; `accounts test` and the
// account page): the client's one harmless authenticated call, recorded as the account's check
// state like every poll, so a refusal shows on the account at once. Called from outside the service
// (the operator CLI), a test account whose reporting API this process cannot reach (no endpoint
// variable set here; the built-in sandbox runs inside the service) is not checked and nothing is
// recorded: the process's own configuration is not the account's failure
// (docs/decisions/0210-accounts-test-outside-the-service.md).
import type { ConnectionCheck } from "../../acquirers/contract";
import { recordReportingCheck } from "./record-reporting-check";
import { loadAccountReporting, ReportingNotReachableHereError, ReportingUnavailableError, type ReportingAccessFor } from "./reporting-access";

/** Nothing was asked and nothing recorded: this process reaches no reporting endpoint for the account's mode. */
export interface ReportingNotChecked {
  ok: false;
  checked: false;
  message: string;
  mode: "test" | "live";
  /** The variable that would let this process reach it. */
  endpointVariable: string;
}

export async function testReportingConnection({
  merchantId,
  accountId,
  accessFor,
  outsideTheService = false,
  now = new Date(),
}: {
  merchantId: string;
  accountId: string;
  accessFor?: ReportingAccessFor;
  /** A process beside the service (the operator CLI): an endpoint unknown here is not the account's failure. */
  outsideTheService?: boolean;
  now?: Date;
}): Promise<ConnectionCheck | ReportingNotChecked> {
  let check: ConnectionCheck;
  try {
    const reporting = await loadAccountReporting({ merchantId, accountId, accessFor });
    check = await reporting.client.checkCredentials(reporting.call);
  } catch (error) {
    if (!(error instanceof ReportingUnavailableError)) throw error;
    if (outsideTheService && error instanceof ReportingNotReachableHereError)
      return { ok: false, checked: false, message: error.message, mode: error.mode, endpointVariable: error.endpointVariable };
    check = { ok: false, message: error.message };
  }
  await recordReportingCheck({ accountId, problem: check.ok ? null : check.message, now });
  return check;
}
