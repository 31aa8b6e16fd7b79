// The merchant accounts each acquirer sandbox knows, as a real acquirer's test environment hands out
// test credentials: three per acquirer, so that tests (and a second local merchant) can prove that
// each merchant reaches the acquirer under its own account and cannot use another's. The first of
// each is what local mode gives the demo merchant (lib/sandboxes/seed-demo.ts). Listed in the README.

export interface FinaroSandboxAccount {
  /** "M": the MID. */
  merchantId: string;
  signatureKey: string;
}

export interface ClearhausSandboxAccount {
  apiKey: string;
  /** GET /account: merchant_id [0-9]{15}, and the account's other facts. */
  merchantId: string;
  descriptor: string;
  name: string;
  country: string;
  currency: string;
  mcc: string;
}

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

export const FINARO_SANDBOX_ACCOUNTS: readonly FinaroSandboxAccount[] = [
  { merchantId: "SANDBOXFINARO1", signatureKey: "finaro-sandbox-signature-key" },
  { merchantId: "SANDBOXFINARO2", signatureKey: "finaro-sandbox-signature-key-2" },
  { merchantId: "SANDBOXFINARO3", signatureKey: "finaro-sandbox-signature-key-3" },
];

export const CLEARHAUS_SANDBOX_ACCOUNTS: readonly ClearhausSandboxAccount[] = [
  {
    apiKey: "2b0c4b3e-5c1f-4a8e-9d2a-6f1e0c7b9a01",
    merchantId: "000000000000001",
    descriptor: "Demo Shop",
    name: "Demo Shop ApS",
    country: "DK",
    currency: "DKK",
    mcc: "5999",
  },
  {
    apiKey: "7d5e1f2a-3b4c-4d6e-8f90-a1b2c3d4e502",
    merchantId: "000000000000002",
    descriptor: "Second Shop",
    name: "Second Shop ApS",
    country: "DK",
    currency: "EUR",
    mcc: "5732",
  },
  {
    apiKey: "c3a9e8d7-6b5a-4f4e-9d3c-2b1a0f9e8d03",
    merchantId: "000000000000003",
    descriptor: "Third Shop",
    name: "Third Shop AB",
    country: "SE",
    currency: "SEK",
    mcc: "5812",
  },
];

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
