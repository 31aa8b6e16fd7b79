// A merchant for a whole test file, named at its top. Apart from merchant-factories.ts, which the
// Playwright specs import too: this one registers vitest hooks.
import { createTestMerchant, type TestMerchant } from "./merchant-factories";
import { madeInBeforeAll } from "./made-in-before-all";

/**
 * For a test file (after useTestDatabase()): a merchant made in beforeAll, for all the file's tests.
 * What it returns reads the fields of the merchant made then, so that the file can name it where it
 * declares everything else.
 */
export function useTestMerchant(options: Parameters<typeof createTestMerchant>[0] = {}): TestMerchant {
  const merchant = madeInBeforeAll("the merchant", () => createTestMerchant(options));
  return {
    get merchantId() {
      return merchant.get().merchantId;
    },
    get apiKey() {
      return merchant.get().apiKey;
    },
    get liveApiKey() {
      return merchant.get().liveApiKey;
    },
    get notificationSecret() {
      return merchant.get().notificationSecret;
    },
    get liveNotificationSecret() {
      return merchant.get().liveNotificationSecret;
    },
  };
}
