// Back office, Settings → Acquirer accounts: an owner sets an account's reporting API credentials
// (disputes and settlements, issue 40). The fields are checked against the acquirer's reporting
// schema first (errors on the form's `credential.<key>` fields, before the password is asked), then
// the password is asked again like every account change, then setReportingCredentials seals and
// audits them. An acquirer that publishes no reporting API is refused with that sentence.
import { z } from "zod";
import { reportingOf } from "../../acquirers/reporting";
import { assertCan, NotFoundError, type Actor } from "../../auth/actor";
import { confirmIdentity } from "../../auth/confirm-identity";
import { db } from "../../db";
import { setReportingCredentials } from "../../routing/accounts/set-reporting-credentials";
import type { ReportingAccessFor } from "../../routing/accounts/reporting-access";
import { UserFacingError } from "../action-result";
import { noReportingApiSentence } from "../reporting-availability";

/** The form's `credential.<key>` fields, trimmed, the empty ones left out. */
function credentialsOf(form: Record<string, string>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(form)
      .filter(([key, value]) => key.startsWith("credential.") && value.trim() !== "")
      .map(([key, value]) => [key.slice("credential.".length), value.trim()]),
  );
}

/** A reporting form of Settings → Acquirer accounts, as its server action hands it over (`accessFor`: the tests' fake client). */
export interface ReportingFormAction {
  actor: Actor;
  form: Record<string, string>;
  accessFor?: ReportingAccessFor;
}

/** The account the form names, once the actor may change acquirer accounts. */
export function reportingFormAccountId({ actor, form }: ReportingFormAction): string {
  assertCan(actor, "acquirer_accounts:write");
  return z.string().min(1).max(64).parse(form.accountId);
}

export async function setAccountReportingCredentials(action: ReportingFormAction): Promise<{ fingerprint: string; api: string }> {
  const { actor, form, accessFor } = action;
  const accountId = reportingFormAccountId(action);
  const account = await db().acquirerAccount.findFirst({ where: { id: accountId, merchantId: actor.merchantId }, select: { id: true, processor: true } });
  if (!account) throw new NotFoundError("Acquirer account");
  const reporting = reportingOf(account.processor);
  if (!reporting) throw new UserFacingError(noReportingApiSentence(account.processor));
  const credentials = credentialsOf(form);
  const parsed = reporting.credentials.schema.safeParse(credentials);
  if (!parsed.success)
    throw new z.ZodError(parsed.error.issues.map((issue) => ({ ...issue, path: [issue.path.length ? `credential.${String(issue.path[0])}` : "form"] })) as z.core.$ZodIssue[]);
  await confirmIdentity({ userId: actor.userId, input: form });
  const { fingerprint } = await setReportingCredentials({ merchantId: actor.merchantId, accountId, credentials: parsed.data, userId: actor.userId, accessFor });
  return { fingerprint, api: reporting.label };
}
