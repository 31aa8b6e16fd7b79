// Acquirer accounts' pure rules: credentials per processor, descriptors per acquirer, the other
// fields, the sealing of credentials, and the routing plan over accounts.
import { generateKeyPairSync } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { resetConfig } from "@/lib/env";
import { parseCredentials } from "@/lib/acquirers/credentials";
import {
  accountFieldsSchema,
  acquirerMerchantIdProblem,
  currenciesProblem,
  currenciesSchema,
  descriptorProblem,
  numericCountryCode,
} from "@/lib/routing/accounts/account-input";
import { credentialsFingerprint, openCredentials, sealCredentials } from "@/lib/routing/accounts/seal-credentials";
import { planRouting } from "@/lib/routing/routing";

const saved = { ...process.env };
beforeAll(() => {
  process.env.CARD_DATA_KEY = Buffer.alloc(32, 3).toString("base64");
  process.env.API_KEY_SECRET = "a".repeat(40);
  process.env.SESSION_SECRET = "s".repeat(40);
  resetConfig();
});
afterAll(() => {
  process.env = { ...saved };
  resetConfig();
});

const issues = (run: () => unknown) => {
  try {
    run();
    return [];
  } catch (error) {
    if (error instanceof z.ZodError) return error.issues.map((issue) => issue.path.join("."));
    throw error;
  }
};

describe("credentials per processor", () => {
  it("accept each acquirer's shape and refuse the wrong one, naming the field", () => {
    expect(parseCredentials("clearhaus", { apiKey: "2b0c4b3e-5c1f-4a8e-9d2a-6f1e0c7b9a01" }).processor).toBe("clearhaus");
    expect(issues(() => parseCredentials("clearhaus", { apiKey: "not-a-uuid" }))).toEqual(["apiKey"]);
    expect([...new Set(issues(() => parseCredentials("finaro", { merchantId: "M 1", signatureKey: "short" })))]).toEqual([
      "merchantId",
      "signatureKey",
    ]);
    // Bambora North America: a 9-digit merchant id and one passcode per API; ":" would break `Passcode base64(merchant_id:passcode)`.
    expect(
      parseCredentials("bambora", { merchantId: "300200578", paymentsPasscode: "Pay1", reportingPasscode: "Rep1" }).processor,
    ).toBe("bambora");
    expect(issues(() => parseCredentials("bambora", { merchantId: "T1", paymentsPasscode: "x:y", reportingPasscode: "ok" }))).toEqual([
      "merchantId",
      "paymentsPasscode",
    ]);
    // The Online Checkout credentials of earlier versions are not bambora credentials any more.
    expect(issues(() => parseCredentials("bambora", { accessToken: "a", merchantNumber: "T1", secretToken: "s" })).length).toBeGreaterThan(0);
    // Another processor's credentials are refused (unknown keys).
    expect(issues(() => parseCredentials("bambora", { apiKey: "2b0c4b3e-5c1f-4a8e-9d2a-6f1e0c7b9a01" })).length).toBeGreaterThan(0);
  });

  it("take the Clearhaus signing key only as an RSA private key, together with its signing API key", () => {
    const { privateKey } = generateKeyPairSync("rsa", { modulusLength: 1024 });
    const pem = privateKey.export({ type: "pkcs1", format: "pem" }).toString();
    const apiKey = "2b0c4b3e-5c1f-4a8e-9d2a-6f1e0c7b9a01";
    expect(
      parseCredentials("clearhaus", { apiKey, signingApiKey: "4390aec7-f76a-4c2f-8597-c87c2d06cb4f", signingPrivateKey: pem }).processor,
    ).toBe("clearhaus");
    expect(issues(() => parseCredentials("clearhaus", { apiKey, signingPrivateKey: pem }))).toEqual(["signingPrivateKey"]);
    expect(
      issues(() =>
        parseCredentials("clearhaus", {
          apiKey,
          signingApiKey: "4390aec7-f76a-4c2f-8597-c87c2d06cb4f",
          signingPrivateKey: "-----BEGIN RSA PRIVATE KEY-----\nnope\n-----END RSA PRIVATE KEY-----",
        }),
      ),
    ).toEqual(["signingPrivateKey"]);
  });
});

describe("statement descriptors by each acquirer's rules", () => {
  it("Clearhaus: 2 to 22 printable ASCII, not all digits, one character or a sequence", () => {
    expect(descriptorProblem("clearhaus", "Demo Shop")).toBeUndefined();
    for (const bad of ["D", "x".repeat(23), "12345", "aaaa", "abcd", "Café"])
      expect(descriptorProblem("clearhaus", bad), bad).toBeDefined();
  });

  it("Finaro and Bambora up to 25 characters", () => {
    expect(descriptorProblem("finaro", "x".repeat(25))).toBeUndefined();
    expect(descriptorProblem("finaro", "x".repeat(26))).toBeDefined();
    expect(descriptorProblem("bambora", "x".repeat(25))).toBeUndefined();
    expect(descriptorProblem("bambora", "x".repeat(26))).toBeDefined();
  });

  it("a Bambora North America account takes exactly one currency, CAD or USD", () => {
    expect(currenciesProblem("bambora", { anyCurrency: false, currencies: ["CAD"] })).toBeUndefined();
    expect(currenciesProblem("bambora", { anyCurrency: false, currencies: ["USD"] })).toBeUndefined();
    for (const bad of [{ anyCurrency: true, currencies: [] }, { anyCurrency: false, currencies: ["DKK"] }, { anyCurrency: false, currencies: ["CAD", "USD"] }])
      expect(currenciesProblem("bambora", bad), JSON.stringify(bad)).toMatch(/CAD or USD/);
    expect(currenciesProblem("finaro", { anyCurrency: true, currencies: [] })).toBeUndefined();
  });
});

describe("account fields", () => {
  const valid = {
    name: "Main",
    acquirerMerchantId: "M1",
    mcc: "5999",
    merchantName: "Demo Shop",
    country: "dk",
    descriptor: "Demo",
    currencies: "eur, DKK",
  };

  it("parse as entered: currencies upper-cased and sorted, country upper-cased, test by default", () => {
    expect(accountFieldsSchema.parse(valid)).toMatchObject({
      currencies: { anyCurrency: false, currencies: ["DKK", "EUR"] },
      country: "DK",
      mode: "test",
      enabled: true,
    });
    expect(currenciesSchema.parse("any")).toEqual({ anyCurrency: true, currencies: [] });
  });

  it("refuse a bad MCC, country, currency and BIN, each named", () => {
    expect(
      issues(() =>
        accountFieldsSchema.parse({ ...valid, mcc: "59", country: "XX", currencies: "EUR, EURO", acquirerBins: { visa: "12ab" } }),
      ).sort(),
    ).toEqual(["acquirerBins.visa", "country", "currencies", "mcc"]);
    expect(issues(() => accountFieldsSchema.parse({ ...valid, acquirerBins: { diners: "123456" } }))).toEqual(["acquirerBins"]);
  });

  it("Clearhaus' merchant id is its 15 digits; the 3-D Secure country is numeric", () => {
    expect(acquirerMerchantIdProblem("clearhaus", "000000000000001")).toBeUndefined();
    expect(acquirerMerchantIdProblem("clearhaus", "1")).toBeDefined();
    expect(acquirerMerchantIdProblem("finaro", "x".repeat(36))).toBeDefined();
    expect(numericCountryCode("DK")).toBe("208");
  });
});

describe("sealed credentials", () => {
  const credentials = parseCredentials("finaro", { merchantId: "MID1", signatureKey: "secret-signature-key" });

  it("hold no credential in clear, open for their own account only, and show a stable fingerprint", () => {
    const sealed = sealCredentials(credentials, "account-1");
    expect(sealed.credentialsSealed).not.toContain("secret-signature-key");
    expect(sealed.credentialsSealed).not.toContain("MID1");
    expect(openCredentials(sealed, "account-1")).toEqual(credentials);
    expect(() => openCredentials(sealed, "account-2")).toThrow();
    expect(credentialsFingerprint(credentials)).toMatch(/^[0-9a-f]{16}$/);
    expect(credentialsFingerprint(credentials)).toBe(
      credentialsFingerprint(parseCredentials("finaro", { signatureKey: "secret-signature-key", merchantId: "MID1" })),
    );
  });
});

describe("the routing plan over accounts", () => {
  const fitting = [
    { id: "acc-clearhaus", processor: "clearhaus" as const },
    { id: "acc-bambora", processor: "bambora" as const },
  ];

  it("skips processors of the merchant's rule without an account, in order", () => {
    expect(planRouting({ order: ["finaro", "clearhaus", "bambora"], fitting, currency: "DKK", fromRequest: false, rule: 1 })).toEqual({
      kind: "route",
      accounts: [
        { processor: "clearhaus", accountId: "acc-clearhaus" },
        { processor: "bambora", accountId: "acc-bambora" },
      ],
    });
  });

  it("skips bambora for payouts and MITs, and refuses a request that names it for them, in the API's words", () => {
    expect(planRouting({ order: ["bambora", "clearhaus"], fitting, currency: "CAD", fromRequest: false, rule: 2, purpose: "payout" })).toEqual({
      kind: "route",
      accounts: [{ processor: "clearhaus", accountId: "acc-clearhaus" }],
    });
    expect(planRouting({ order: ["bambora"], fitting, currency: "CAD", fromRequest: true, rule: 1, purpose: "payout" })).toMatchObject({
      kind: "refused",
      error: { message: "processor: bambora offers no payouts" },
    });
    expect(planRouting({ order: ["bambora"], fitting, currency: "CAD", fromRequest: false, rule: 2, purpose: "mit" })).toMatchObject({
      kind: "refused",
      error: { message: expect.stringMatching(/^currency: .*\(bambora takes merchant-initiated payments only as immediate purchases/) },
    });
    expect(planRouting({ order: ["bambora"], fitting, currency: "CAD", fromRequest: true, rule: 1 })).toMatchObject({ kind: "route" });
  });

  it("refuses a request that names a processor without an account, naming it; and a payment no account takes, naming the currency", () => {
    const named = planRouting({ order: ["finaro", "clearhaus"], fitting, currency: "DKK", fromRequest: true, rule: 1, mode: "live" });
    expect(named).toMatchObject({
      kind: "refused",
      error: { code: "INVALID_PARAMETER", message: "processor: finaro has no enabled live acquirer account of this merchant that accepts DKK" },
    });
    const none = planRouting({ order: ["finaro"], fitting: [], currency: "SEK", fromRequest: false, rule: 2, mode: "test" });
    expect(none).toMatchObject({
      kind: "refused",
      error: { message: "currency: no enabled test acquirer account of this merchant accepts SEK at the processors of routing rule 2 (finaro)" },
    });
  });
});
