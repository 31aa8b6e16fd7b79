// The merchant accounts the Finaro sandbox knows, as a real acquirer's test environment hands out test
// credentials: three, so that tests (and a second local merchant) can prove that each merchant
// reaches the acquirer under its own account and cannot use another's. The first is what local mode
// gives the demo merchant (lib/sandboxes/seed-demo.ts). Listed in the README.

export interface FinaroSandboxAccount {
  /** "M": the MID. */
  merchantId: string;
  signatureKey: string;
}

export const FINARO_SANDBOX_ACCOUNTS: readonly FinaroSandboxAccount[] = [
  { merchantId: "SANDBOXFINARO1", signatureKey: "finaro-sandbox-signature-key" },
  { merchantId: "SANDBOXFINARO2", signatureKey: "finaro-sandbox-signature-key-2" },
  { merchantId: "SANDBOXFINARO3", signatureKey: "finaro-sandbox-signature-key-3" },
];
