// The Worldline Direct test accounts the sandbox knows, as Worldline hands a merchant a test PSPID
// with an API key id and secret ("Configuration > Technical information > API settings > Direct API
// Key": docs.direct "Authentication"). Three, so tests can show that each merchant reaches the
// platform under its own PSPID and cannot use another's. Public on purpose; never real keys.

export interface WorldlineSandboxAccount {
  /** The PSPID: the `{merchantId}` of every path. */
  merchantId: string;
  apiKeyId: string;
  secretApiKey: string;
  /** The currencies the account is contracted for (the platform refuses the others). */
  currencies: readonly string[];
  /** The payment products active on the account (Dankort, 123, only where Worldline enabled it). */
  products: readonly number[];
}

export const WORLDLINE_SANDBOX_ACCOUNTS: readonly WorldlineSandboxAccount[] = [
  {
    merchantId: "SandboxDemoShopDK",
    apiKeyId: "5E45C937B9DB33AE0001",
    secretApiKey: "worldline-sandbox-secret-api-key-demo-shop-0001",
    currencies: ["DKK", "EUR", "SEK", "NOK"],
    products: [1, 2, 3, 123],
  },
  {
    merchantId: "SandboxSecondShop",
    apiKeyId: "5E45C937B9DB33AE0002",
    secretApiKey: "worldline-sandbox-secret-api-key-second-shop-02",
    currencies: ["DKK", "EUR"],
    products: [1, 3],
  },
  {
    merchantId: "SandboxThirdShopSE",
    apiKeyId: "5E45C937B9DB33AE0003",
    secretApiKey: "worldline-sandbox-secret-api-key-third-shop-003",
    currencies: ["SEK"],
    products: [1, 3],
  },
];

/** The credentials of a sandbox account, as a Worldline-platform bambora account holds them. */
export function worldlineSandboxCredentials(account: WorldlineSandboxAccount) {
  return { merchantId: account.merchantId, apiKeyId: account.apiKeyId, secretApiKey: account.secretApiKey };
}
