// Which of a merchant's acquirer accounts have a reporting API the gateway reads disputes and
// settlements from (lib/acquirers/reporting.ts), and the sentence the back office shows for the
// others: an acquirer that publishes none is said so plainly, never shown as an empty list.
import { reportingOf } from "../acquirers/reporting";
import { ACQUIRER_LABELS, type AcquirerName } from "../acquirers/names";
import { db } from "../db";
import type { Mode } from "../mode";

/** The label of `processor`'s reporting API ("… Merchant API"), or undefined when its acquirer publishes none. */
export function reportingApiLabel(processor: AcquirerName): string | undefined {
  return reportingOf(processor)?.label;
}

/** What the account page and the Disputes and Settlements pages say of an acquirer without a reporting API. */
export function noReportingApiSentence(processor: AcquirerName): string {
  return `${ACQUIRER_LABELS[processor]} publishes no dispute or settlement API: the gateway cannot import its disputes or settlements; see them in ${ACQUIRER_LABELS[processor]}'s own portal and reports (docs/acquirers.md, "Disputes and settlements").`;
}

export interface ReportingAccount {
  id: string;
  name: string;
  processor: AcquirerName;
  /** The reporting API's label; undefined: the acquirer publishes none. */
  reportingApi?: string;
  mode: Mode;
  /** Reporting credentials are set on the account: their fingerprint and when (write-only, like the gateway's). */
  credentialsSet: boolean;
  fingerprint: string | null;
  setAt: Date | null;
  /** The last call's problem, and how many failed in a row (0: the last one worked or none was made). */
  problem: string | null;
  failures: number;
  checkedAt: Date | null;
}

/**
 * The merchant's accounts (of `mode`, when given) with their reporting state: for the filters and
 * notes of the Disputes and Settlements pages, and the reporting section of each account's card.
 */
export async function listReportingAccounts({ merchantId, mode }: { merchantId: string; mode?: Mode }): Promise<ReportingAccount[]> {
  const rows = await db().acquirerAccount.findMany({
    where: { merchantId, ...(mode ? { mode } : {}) },
    select: {
      id: true,
      name: true,
      processor: true,
      mode: true,
      reportingCredentialsFingerprint: true,
      reportingCredentialsSetAt: true,
      reportingProblem: true,
      reportingFailures: true,
      reportingCheckedAt: true,
    },
    orderBy: [{ processor: "asc" }, { createdAt: "asc" }],
  });
  return rows.map((row) => ({
    id: row.id,
    name: row.name,
    processor: row.processor,
    mode: row.mode,
    reportingApi: reportingApiLabel(row.processor),
    credentialsSet: row.reportingCredentialsFingerprint !== null,
    fingerprint: row.reportingCredentialsFingerprint,
    setAt: row.reportingCredentialsSetAt,
    problem: row.reportingProblem,
    failures: row.reportingFailures,
    checkedAt: row.reportingCheckedAt,
  }));
}
