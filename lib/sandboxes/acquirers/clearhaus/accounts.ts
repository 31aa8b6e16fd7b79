// The merchant accounts the Clearhaus sandbox knows, as a real acquirer's test environment hands out test
// credentials: three, so that tests (and a second local merchant) can prove that each merchant
// reaches the acquirer under its own account and cannot use another's. The first is what local mode
// gives the demo merchant (lib/sandboxes/seed-demo.ts). Listed in the README.

export interface ClearhausSandboxAccount {
  apiKey: string;
  /** GET /account: merchant_id [0-9]{15}, and the account's other facts. */
  merchantId: string;
  descriptor: string;
  name: string;
  country: string;
  currency: string;
  mcc: string;
  /** GET /account `acquirer`: the BINs the 3-D Secure AReq names ("Used for 3-D Secure"). */
  visaBin: string;
  mastercardBin: string;
}

/**
 * A Clearhaus partner's signing API key with its RSA key pair: "POST requests must be signed" by a
 * partner, with `Signature: <signing-api-key> RS256-hex <signature>` (getting_started/signing_requests).
 * The sandbox verifies with the public key; tests and local accounts sign with the private one.
 */
export interface ClearhausSandboxSigningPartner {
  signingApiKey: string;
  publicKeyPem: string;
  privateKeyPem: string;
}

export const CLEARHAUS_SANDBOX_ACCOUNTS: readonly ClearhausSandboxAccount[] = [
  {
    apiKey: "2b0c4b3e-5c1f-4a8e-9d2a-6f1e0c7b9a01",
    merchantId: "000000000000001",
    descriptor: "Demo Shop",
    name: "Demo Shop ApS",
    country: "DK",
    currency: "DKK",
    mcc: "5999",
    visaBin: "438309",
    mastercardBin: "526571",
  },
  {
    apiKey: "7d5e1f2a-3b4c-4d6e-8f90-a1b2c3d4e502",
    merchantId: "000000000000002",
    descriptor: "Second Shop",
    name: "Second Shop ApS",
    country: "DK",
    currency: "EUR",
    mcc: "5732",
    visaBin: "438309",
    mastercardBin: "526571",
  },
  {
    apiKey: "c3a9e8d7-6b5a-4f4e-9d3c-2b1a0f9e8d03",
    merchantId: "000000000000003",
    descriptor: "Third Shop",
    name: "Third Shop AB",
    country: "SE",
    currency: "SEK",
    mcc: "5812",
    visaBin: "438309",
    mastercardBin: "526571",
  },
];

/**
 * The signing partner the Clearhaus sandbox knows: the key id and 512-bit demo key pair printed in
 * Clearhaus' own docs (getting_started/rsa_signature/rsa_signature.md, fixture
 * lib/acquirers/clearhaus/fixtures/signature-docs-example.json). Public on purpose; never a real key.
 */
export const CLEARHAUS_SANDBOX_SIGNING_PARTNERS: readonly ClearhausSandboxSigningPartner[] = [
  {
    signingApiKey: "4390aec7-f76a-4c2f-8597-c87c2d06cb4f",
    publicKeyPem:
      "-----BEGIN PUBLIC KEY-----\nMFwwDQYJKoZIhvcNAQEBBQADSwAwSAJBALYK0zmwuYkH3YWcFNLLddx5cwDxEY7G\ni1xITuQqRrU4yD3uSw+JWYKknb4Tbndb6iEHY+e6gIGD+49TojnNeIUCAwEAAQ==\n-----END PUBLIC KEY-----",
    privateKeyPem:
      "-----BEGIN RSA PRIVATE KEY-----\nMIIBOwIBAAJBALYK0zmwuYkH3YWcFNLLddx5cwDxEY7Gi1xITuQqRrU4yD3uSw+J\nWYKknb4Tbndb6iEHY+e6gIGD+49TojnNeIUCAwEAAQJARyuYRRe4kcBHdPL+mSL+\nY0IAGkAlUyKAXYXPghidKD/v/oLrFaZWALGM2clv6UoYYpPnInSgbcud4sTcfeUm\nQQIhAN2JZ2qv0WGcbIopBpwpQ5jDxMGVkmkVVUEWWABGF8+pAiEA0lySxTELZm8b\nGx9UEDRghN+Qv/OuIKFldu1Ba4f8W30CIQCaQFIBtunTTVdF28r+cLzgYW9eWwbW\npEP4TdZ4WlW6AQIhAMDCTUdeUpjxlH/87BXROORozAXocBW8bvJUI486U5ctAiAd\nInviQqJd1KTGRDmWIGrE5YACVmW2JSszD9t5VKxkAA==\n-----END RSA PRIVATE KEY-----",
  },
];
