// Back office, Settings → Acquirer accounts: "Test reporting API" of one of the merchant's accounts
// (owners): the reporting client's one harmless authenticated call with the account's reporting
// credentials, recorded as the account's check state by testReportingConnection, and audited.
import type { ConnectionCheck } from "../../acquirers/contract";
import { NotFoundError } from "../../auth/actor";
import { recordAudit } from "../../audit/audit";
import { db } from "../../db";
import { ApiError } from "../../errors";
import { testReportingConnection } from "../../routing/accounts/test-reporting-connection";
import { reportingFormAccountId, type ReportingFormAction } from "./set-account-reporting-credentials";

export async function testAccountReporting(action: ReportingFormAction): Promise<ConnectionCheck> {
  const { actor, accessFor } = action;
  const accountId = reportingFormAccountId(action);
  let result: ConnectionCheck;
  try {
    result = await testReportingConnection({ merchantId: actor.merchantId, accountId, accessFor });
  } catch (error) {
    // Another merchant's account is refused as one that does not exist.
    if (error instanceof ApiError && error.code === "INVALID_PARAMETER") throw new NotFoundError("Acquirer account");
    throw error;
  }
  await db().$transaction((tx) =>
    recordAudit(tx, { actor, action: "acquirer_account.connection_tested", target: accountId, details: { api: "reporting", ok: result.ok, message: result.message } }),
  );
  return result;
}
