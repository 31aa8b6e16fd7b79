import type { Metadata } from "next";
import { requireRole } from "@/lib/auth/session";
import { listAcquirerAccounts } from "@/lib/routing/accounts/list-acquirer-accounts";
import { describeCurrencies } from "@/lib/routing/accounts/account-input";
import { credentialFieldsOf } from "@/lib/acquirers/credentials";
import { platformsOf, platformView } from "@/lib/acquirers/platforms";
import { ACQUIRER_LABELS, ACQUIRER_NAMES, type AcquirerName } from "@/lib/acquirers/names";
import { Card, DescriptionList, CardPage } from "@/components/ui/card";
import { Badge } from "@/components/ui/badge";
import { Alert } from "@/components/ui/alert";
import { formatDateTime } from "@/components/backoffice/format";
import {
  AddAcquirerAccountForm,
  EditAcquirerAccountForm,
  TestConnectionForm,
  type AcquirerChoice,
} from "@/components/backoffice/acquirer-account-forms";
import { ReportingCredentialsForm, TestReportingForm } from "@/components/backoffice/reporting-forms";
import { listReportingAccounts, noReportingApiSentence, type ReportingAccount } from "@/lib/backoffice/reporting-availability";
import { reportingOf } from "@/lib/acquirers/reporting";
import {
  addAcquirerAccountAction,
  changeAcquirerAccountAction,
  setReportingCredentialsAction,
  testAcquirerAccountAction,
  testReportingAction,
} from "./actions";

export const metadata: Metadata = { title: "Acquirer accounts" };
export const dynamic = "force-dynamic";

const LABELS = `${ACQUIRER_NAMES.slice(0, -1).map((name) => ACQUIRER_LABELS[name]).join(", ")} and ${ACQUIRER_LABELS[ACQUIRER_NAMES.at(-1)!]}`;

/**
 * What the form offers: each acquirer on each of its platforms (decision 0193), its label (with the
 * only currencies it takes, where it limits them), its field hints and its credential fields.
 */
const ACQUIRER_CHOICES: (AcquirerChoice & { processor: AcquirerName; platform: string | null })[] = ACQUIRER_NAMES.flatMap((name) =>
  platformsOf(name).map((platform) => {
    const { onlyCurrencies, hints } = platformView(name, platform.key).accountRules;
    // The first platform keeps the acquirer's own label; another names its API and the processor value ("Worldline Direct (bambora)").
    const label = platform.key ? `${platform.label} (${name})` : ACQUIRER_LABELS[name];
    return {
      value: platform.key ? `${name}:${platform.key}` : name,
      processor: name,
      platform: platform.key,
      label: onlyCurrencies ? `${label} (${onlyCurrencies.join(", ")})` : label,
      hints,
    };
  }),
);
const CHOICE_FIELDS = Object.fromEntries(ACQUIRER_CHOICES.map((choice) => [choice.value, credentialFieldsOf(choice.processor, choice.platform)]));
const choiceOf = (processor: AcquirerName, platform: string | null) =>
  ACQUIRER_CHOICES.find((choice) => choice.processor === processor && choice.platform === platform)!;

// Settings → Acquirer accounts (owners only; others get the not-found page): where this merchant's
// payments settle. Credentials are write-only: only their fingerprint and when they were set show.
export default async function AcquirerAccountsPage() {
  const user = await requireRole("acquirer_accounts:write");
  const [accounts, reportingStates] = await Promise.all([listAcquirerAccounts({ merchantId: user.merchantId }), listReportingAccounts({ merchantId: user.merchantId })]);
  const reportingOfAccount = new Map(reportingStates.map((state) => [state.id, state]));
  return (
    <CardPage title="Acquirer accounts" description={`The accounts at ${LABELS} your payments settle into. Payments go only to enabled accounts that take their currency, in your routing order.`}>
      {accounts.length === 0 ? <Alert tone="warning">No acquirer account yet: payments are refused until you add one.</Alert> : null}
      {accounts.map((account) => (
        <Card
          key={account.id}
          title={
            <span className="flex flex-wrap items-center gap-2">
              <span>{account.name}</span>
              <Badge tone="slate">{choiceOf(account.processor, account.platform).label}</Badge>
              <Badge tone={account.enabled ? "green" : "amber"}>{account.enabled ? "Enabled" : "Disabled"}</Badge>
              <Badge tone={account.mode === "live" ? "violet" : "blue"}>{account.mode === "live" ? "Live" : "Test"}</Badge>
            </span>
          }
        >
          <div data-testid="acquirer-account" className="space-y-4">
            {account.credentialsNeeded ? <Alert tone="warning">{account.credentialsNeeded}</Alert> : null}
            <DescriptionList
              items={[
                { term: "Acquirer merchant id", value: <span className="font-mono">{account.acquirerMerchantId}</span> },
                { term: "Merchant name · country", value: `${account.merchantName} · ${account.country}` },
                { term: "MCC", value: <span className="font-mono">{account.mcc}</span> },
                { term: "Statement descriptor", value: account.descriptor },
                { term: "Currencies", value: describeCurrencies(account) },
                {
                  term: "Acquirer BINs",
                  value:
                    Object.entries(account.acquirerBins)
                      .map(([scheme, bin]) => `${scheme} ${bin}`)
                      .join(", ") || "none",
                },
                {
                  term: "Credentials",
                  value: <SealedCredentials fingerprint={account.credentialsFingerprint} setAt={account.credentialsSetAt} testId="credentials-fingerprint" />,
                },
              ]}
            />
            <ReportingSection account={reportingOfAccount.get(account.id)} processor={account.processor} totpEnabled={user.totpEnabled} />
            <div className="flex flex-col gap-4 border-t border-slate-200 pt-4">
              <TestConnectionForm action={testAcquirerAccountAction} accountId={account.id} />
              <EditAcquirerAccountForm
                action={changeAcquirerAccountAction}
                account={{
                  id: account.id,
                  processor: account.processor,
                  name: account.name,
                  acquirerMerchantId: account.acquirerMerchantId,
                  acquirerBins: account.acquirerBins,
                  mcc: account.mcc,
                  merchantName: account.merchantName,
                  country: account.country,
                  descriptor: account.descriptor,
                  currencies: account.currencies,
                  anyCurrency: account.anyCurrency,
                  enabled: account.enabled,
                  mode: account.mode,
                }}
                acquirer={choiceOf(account.processor, account.platform)}
                credentialFields={CHOICE_FIELDS[choiceOf(account.processor, account.platform).value] ?? []}
                totpEnabled={user.totpEnabled}
              />
            </div>
          </div>
        </Card>
      ))}
      <Card
        title="Add an account"
        description="From your acquirer's onboarding: the credentials, and the merchant as the card schemes know it (MID, MCC, name, country, BINs)."
      >
        <AddAcquirerAccountForm
          action={addAcquirerAccountAction}
          acquirers={ACQUIRER_CHOICES}
          credentialFields={CHOICE_FIELDS}
          totpEnabled={user.totpEnabled}
        />
      </Card>
    </CardPage>
  );
}

/**
 * The account's reporting API (disputes and settlements, issue 40): its credentials' fingerprint,
 * the last check (failing in red with the problem and the failures in a row), the form and the test;
 * or, for an acquirer that publishes none, that sentence.
 */
/** Credentials as the page shows them: never the secret, its fingerprint and when it was set. */
function SealedCredentials({ fingerprint, setAt, testId }: { fingerprint: string; setAt: Date | null; testId: string }) {
  return (
    <span>
      <span className="font-mono" data-testid={testId}>
        {fingerprint}
      </span>{" "}
      <span className="text-slate-500">set {formatDateTime(setAt)} UTC</span>
    </span>
  );
}

function ReportingSection({ account, processor, totpEnabled }: { account: ReportingAccount | undefined; processor: AcquirerName; totpEnabled: boolean }) {
  const reporting = reportingOf(processor);
  if (!reporting || !account)
    return (
      <div className="border-t border-slate-200 pt-4" data-testid="reporting-section">
        <h3 className="text-sm font-semibold text-slate-900">Disputes and settlements</h3>
        <p className="mt-1 text-sm text-slate-600">{noReportingApiSentence(processor)}</p>
      </div>
    );
  const failing = account.problem !== null;
  return (
    <div className="space-y-3 border-t border-slate-200 pt-4" data-testid="reporting-section">
      <h3 className="text-sm font-semibold text-slate-900">Disputes and settlements: {reporting.label}</h3>
      <DescriptionList
        items={[
          {
            term: "Reporting credentials",
            value: account.fingerprint ? (
              <SealedCredentials fingerprint={account.fingerprint} setAt={account.setAt} testId="reporting-fingerprint" />
            ) : (
              <span className="text-amber-800">none: disputes and settlements of this account are not imported</span>
            ),
          },
          {
            term: "Last check",
            value: !account.checkedAt ? (
              <span className="text-slate-500">not checked yet</span>
            ) : failing ? (
              <span className="font-medium text-red-700" data-testid="reporting-check" data-state="failing">
                Failing: {account.failures} failed call{account.failures === 1 ? "" : "s"} in a row, the last {formatDateTime(account.checkedAt)} UTC: {account.problem}
              </span>
            ) : (
              <span className="text-emerald-700" data-testid="reporting-check" data-state="ok">
                Working, {formatDateTime(account.checkedAt)} UTC
              </span>
            ),
          },
        ]}
      />
      {failing ? <Alert tone="error">The {reporting.label} refuses or does not answer this account: disputes and settlements stop arriving until it does. Check the credentials, then test again.</Alert> : null}
      <div className="flex flex-col gap-3">
        {account.fingerprint ? <TestReportingForm action={testReportingAction} accountId={account.id} /> : null}
        <ReportingCredentialsForm
          action={setReportingCredentialsAction}
          accountId={account.id}
          label={reporting.label}
          fields={reporting.credentials.fields}
          hasCredentials={account.credentialsSet}
          totpEnabled={totpEnabled}
        />
      </div>
    </div>
  );
}
