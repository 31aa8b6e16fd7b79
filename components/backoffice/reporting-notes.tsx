// What the Disputes and Settlements pages say above their lists about where the rows come from:
// acquirers that publish no reporting API, accounts without its credentials, and accounts whose
// reporting API keeps failing, so that a dispute or payout that is not there is never silently missing.
import Link from "next/link";
import { Alert } from "@/components/ui/alert";
import { SelectField } from "@/components/ui/field";
import { ACQUIRER_LABELS } from "@/lib/acquirers/names";
import { noReportingApiSentence, type ReportingAccount } from "@/lib/backoffice/reporting-availability";

export function ReportingNotes({ accounts, imported }: { accounts: ReportingAccount[]; imported: "disputes" | "settlements" }) {
  const withoutApi = [...new Set(accounts.filter((account) => !account.reportingApi).map((account) => account.processor))];
  const withoutCredentials = accounts.filter((account) => account.reportingApi && !account.credentialsSet);
  const failing = accounts.filter((account) => account.reportingApi && account.problem);
  return (
    <div className="mb-6 space-y-3" data-testid="reporting-notes">
      {withoutApi.map((processor) => (
        <Alert key={processor} tone="info">
          {noReportingApiSentence(processor)}
        </Alert>
      ))}
      {withoutCredentials.map((account) => (
        <Alert key={account.id} tone="warning">
          Account “{account.name}” ({ACQUIRER_LABELS[account.processor]}) has no {account.reportingApi} credentials: its {imported} are not imported. An owner sets them under Settings → Acquirer accounts.
        </Alert>
      ))}
      {failing.map((account) => (
        <Alert key={account.id} tone="error">
          Account “{account.name}”: the {account.reportingApi} failed {account.failures} time{account.failures === 1 ? "" : "s"} in a row ({account.problem}); {imported} may be missing.
        </Alert>
      ))}
    </div>
  );
}

/** The "Acquirer account" filter of the Disputes and Settlements pages: any, or one of `accounts`. */
export function ReportingAccountField({ accounts, value, error }: { accounts: ReportingAccount[]; value?: string; error?: string }) {
  return (
    <SelectField
      id="account"
      label="Acquirer account"
      defaultValue={value ?? ""}
      error={error}
      options={[{ value: "", label: "Any account" }, ...accounts.map((account) => ({ value: account.id, label: `${account.name} (${ACQUIRER_LABELS[account.processor]})` }))]}
    />
  );
}

/** A row's payment: its link (the merchant's id where it has one), or `none` when the acquirer's transaction is not one of ours. */
export function PaymentLink({ paymentId, merchantPaymentId, none }: { paymentId: string | null; merchantPaymentId: string | null; none: string }) {
  if (!paymentId) return <span className="text-xs text-amber-800">{none}</span>;
  return (
    <Link href={`/backoffice/payments/${paymentId}`} className="block truncate text-indigo-700 hover:underline">
      {merchantPaymentId ?? <span className="font-mono text-xs">{paymentId}</span>}
    </Link>
  );
}
