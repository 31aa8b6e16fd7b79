// "Test connection" of an account's reporting API credentials (issue 40; `accounts test` and the
// account page): the client's one harmless authenticated call, recorded as the account's check
// state like every poll, so a refusal shows on the account at once.
import type { ConnectionCheck } from "../../acquirers/contract";
import { recordReportingCheck } from "./record-reporting-check";
import { loadAccountReporting, ReportingUnavailableError, type ReportingAccessFor } from "./reporting-access";

export async function testReportingConnection({
  merchantId,
  accountId,
  accessFor,
  now = new Date(),
}: {
  merchantId: string;
  accountId: string;
  accessFor?: ReportingAccessFor;
  now?: Date;
}): Promise<ConnectionCheck> {
  let check: ConnectionCheck;
  try {
    const reporting = await loadAccountReporting({ merchantId, accountId, accessFor });
    check = await reporting.client.checkCredentials(reporting.call);
  } catch (error) {
    if (!(error instanceof ReportingUnavailableError)) throw error;
    check = { ok: false, message: error.message };
  }
  await recordReportingCheck({ accountId, problem: check.ok ? null : check.message, now });
  return check;
}
