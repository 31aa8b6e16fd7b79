// The merchant accounts the Bambora sandbox knows, as a real acquirer's test environment hands out test
// credentials: three, so that tests (and a second local merchant) can prove that each merchant
// reaches the acquirer under its own account and cannot use another's. The first is what local mode
// gives the demo merchant (lib/sandboxes/seed-demo.ts). Listed in the README.

/**
 * A Bambora North America test account: its merchant id, one passcode per API, and what Bambora
 * boarded it with (one currency, CAD or USD; the time zone its report dates are in; the largest
 * amount it takes: "Max value is account specific. Default max value is 1000").
 */
export interface BamboraSandboxAccount {
  merchantId: string;
  paymentsPasscode: string;
  reportingPasscode: string;
  currency: "CAD" | "USD";
  timeZone: string;
  maxAmount: number;
}

export const BAMBORA_SANDBOX_ACCOUNTS: readonly BamboraSandboxAccount[] = [
  {
    merchantId: "300000001",
    paymentsPasscode: "BamboraSandboxPayments1",
    reportingPasscode: "BamboraSandboxReporting1",
    currency: "CAD",
    timeZone: "America/Vancouver",
    maxAmount: 100_000,
  },
  {
    merchantId: "300000002",
    paymentsPasscode: "BamboraSandboxPayments2",
    reportingPasscode: "BamboraSandboxReporting2",
    currency: "USD",
    timeZone: "America/New_York",
    maxAmount: 100_000,
  },
  {
    merchantId: "300000003",
    paymentsPasscode: "BamboraSandboxPayments3",
    reportingPasscode: "BamboraSandboxReporting3",
    currency: "CAD",
    timeZone: "America/Toronto",
    maxAmount: 100_000,
  },
];

/** The credentials of a Bambora sandbox account, as an acquirer account holds them. */
export function bamboraSandboxCredentials(account: BamboraSandboxAccount) {
  return { merchantId: account.merchantId, paymentsPasscode: account.paymentsPasscode, reportingPasscode: account.reportingPasscode };
}
