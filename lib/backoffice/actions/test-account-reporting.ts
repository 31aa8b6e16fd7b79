// Back office, Settings → Acquirer accounts: "Test reporting API" of one of the merchant's accounts
// (owners): the reporting client's one harmless authenticated call with the account's reporting
// credentials, recorded as the account's check state by testReportingConnection, and audited.
import { z } from "zod";
import type { ConnectionCheck } from "../../acquirers/contract";
import { assertCan, NotFoundError, type Actor } from "../../auth/actor";
import { recordAudit } from "../../audit/audit";
import { db } from "../../db";
import { ApiError } from "../../errors";
import { testReportingConnection } from "../../routing/accounts/test-reporting-connection";
import type { ReportingAccessFor } from "../../routing/accounts/reporting-access";

export async function testAccountReporting({
  actor,
  form,
  accessFor,
}: {
  actor: Actor;
  form: Record<string, string>;
  accessFor?: ReportingAccessFor;
}): Promise<ConnectionCheck> {
  assertCan(actor, "acquirer_accounts:write");
  const accountId = z.string().min(1).max(64).parse(form.accountId);
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
