// Stores an acquirer account's reporting API credentials (issue 40): validated by its module's
// `reporting.credentials` schema, sealed bound to the account and the purpose, with a fingerprint to
// show instead, and audited in the same transaction. The check state starts over: the next poll
// (or `accounts test`) says whether the acquirer takes them.
import { db } from "../../db";
import { invalidParameter } from "../../errors";
import { recordAuditEntry } from "../../audit/audit";
import { registeredReportingAccess, type ReportingAccessFor } from "./reporting-access";
import { reportingCredentialsFingerprint, sealReportingCredentials } from "./seal-credentials";

export async function setReportingCredentials({
  merchantId,
  accountId,
  credentials,
  userId = null,
  accessFor = registeredReportingAccess,
  now = new Date(),
}: {
  merchantId: string;
  accountId: string;
  /** As entered: checked here against the module's schema. */
  credentials: unknown;
  /** The back-office user (null: the operator CLI). */
  userId?: string | null;
  accessFor?: ReportingAccessFor;
  now?: Date;
}): Promise<{ fingerprint: string }> {
  const account = await db().acquirerAccount.findFirst({ where: { id: accountId, merchantId }, select: { id: true, processor: true, mode: true } });
  if (!account) throw invalidParameter("account", "no such acquirer account");
  const access = accessFor(account.processor, account.mode);
  if (!access) throw invalidParameter("credentials", `${account.processor} publishes no reporting API the gateway can reach for ${account.mode} accounts`);
  const parsed = access.reporting.credentials.schema.safeParse(credentials);
  if (!parsed.success)
    throw invalidParameter("credentials", `not ${access.reporting.label} credentials: ${parsed.error.issues.map((issue) => `${issue.path.join(".") || "credentials"} ${issue.message}`).join("; ")}`);
  const sealed = sealReportingCredentials(account.processor, parsed.data, account.id);
  const fingerprint = reportingCredentialsFingerprint(account.processor, parsed.data as Record<string, unknown>);
  await db().$transaction(async (tx) => {
    await tx.acquirerAccount.update({
      where: { id: account.id },
      data: {
        reportingCredentialsSealed: sealed.credentialsSealed,
        reportingCredentialsKeyId: sealed.credentialsKeyId,
        reportingCredentialsFingerprint: fingerprint,
        reportingCredentialsSetAt: now,
        reportingCheckedAt: null,
        reportingProblem: null,
        reportingFailures: 0,
      },
    });
    // New credentials deserve a poll at once, not the back-off the old ones earned.
    await tx.reportingCursor.updateMany({ where: { acquirerAccountId: account.id }, data: { nextAttemptAt: null, failures: 0, lastError: null } });
    await recordAuditEntry(tx, {
      merchantId,
      userId,
      action: "acquirer_account.reporting_credentials_changed",
      target: account.id,
      details: { fingerprint, api: access.reporting.label },
    });
  });
  return { fingerprint };
}
