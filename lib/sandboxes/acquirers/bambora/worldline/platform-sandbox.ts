// bambora's Worldline Direct platform as the sandbox launcher knows it (docs/decisions/0193): its
// sandbox, the platform key it is registered under, the variable whose test endpoint replaces it,
// and what its built-in test account is made of (its first sandbox account: PSPID, API key, the
// currencies the PSPID is contracted for).
import { WORLDLINE_SANDBOX_ACCOUNTS, worldlineSandboxCredentials } from "./accounts";
import { createWorldlineSandbox } from "./index";
import { withWorldlineFaults } from "./faults";

export const WORLDLINE_PLATFORM_SANDBOX = {
  name: "bambora-worldline",
  processor: "bambora",
  platform: "worldline",
  /** Set, test accounts of the platform go there and this sandbox is not started by the service. */
  testEndpointVariable: "BAMBORA_WORLDLINE_TEST_BASE_URL",
  create: createWorldlineSandbox,
  withFaults: withWorldlineFaults,
  /** What a Worldline account's input has of its own, for the sandbox account `index`. */
  accountInput(index: number): Record<string, unknown> {
    const account = WORLDLINE_SANDBOX_ACCOUNTS[index]!;
    return {
      acquirerMerchantId: account.merchantId,
      descriptor: "Demo Shop",
      currencies: account.currencies.join(","),
      credentials: worldlineSandboxCredentials(account),
    };
  },
} as const;
