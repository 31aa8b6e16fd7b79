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

export interface BamboraSandboxAccount {
  accessToken: string;
  merchantNumber: string;
  secretToken: string;
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
  { accessToken: "BamboraSandboxAccess1", merchantNumber: "T000000001", secretToken: "BamboraSandboxSecret1" },
  { accessToken: "BamboraSandboxAccess2", merchantNumber: "T000000002", secretToken: "BamboraSandboxSecret2" },
  { accessToken: "BamboraSandboxAccess3", merchantNumber: "T000000003", secretToken: "BamboraSandboxSecret3" },
];
