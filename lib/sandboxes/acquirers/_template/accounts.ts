// The merchant accounts the Xacquirer sandbox knows, as a real acquirer's test environment hands out
// test credentials: three, so that tests (and a second local merchant) can prove that each merchant
// reaches the acquirer under its own account and cannot use another's. The first is what local mode
// gives the demo merchant (lib/sandboxes/seed-demo.ts). REPLACE with the acquirer's own kind of test
// account (its reference).

export interface XacquirerSandboxAccount {
  apiKey: string;
  merchantId: string;
}

export const XACQUIRER_SANDBOX_ACCOUNTS: readonly XacquirerSandboxAccount[] = [
  { apiKey: "xacquirer-sandbox-key-1", merchantId: "XACQUIRER1" },
  { apiKey: "xacquirer-sandbox-key-2", merchantId: "XACQUIRER2" },
  { apiKey: "xacquirer-sandbox-key-3", merchantId: "XACQUIRER3" },
];
