// The Bambora North America sandbox as the launcher starts it: JSON requests under /v1.
import type { AcquirerSandbox } from "../acquirer-sandbox";
import type { AcquirerOperation } from "../faults";
import { BAMBORA_SANDBOX_ACCOUNTS, bamboraSandboxCredentials } from "./accounts";
import { createBamboraSandbox } from "./index";
import { GATEWAY } from "./reference";

const FOLLOW_UPS = { completions: "capture", returns: "refund", void: "void" } as const satisfies Record<string, AcquirerOperation>;

export const bamboraSandbox: AcquirerSandbox = {
  name: "bambora",
  path: "",
  // The service's own test cards (README) work at every sandbox the service starts.
  create: ({ hangMs }) => createBamboraSandbox({ hangMs, sharedTestCards: true }),
  faults: {
    classify({ method, path, body }) {
      // Its read of a pre-authorization finds its completions again.
      if (method === "GET") return /^\/v1\/payments\/\d+$/.test(path) ? { operation: "lookup" } : undefined;
      // Decimal dollars (its accounts are CAD or USD); faults match minor units.
      let json: { amount?: unknown } = {};
      try {
        json = body ? (JSON.parse(body) as typeof json) : {};
      } catch {
        return undefined;
      }
      const amount = typeof json.amount === "number" ? Math.round(json.amount * 100) : undefined;
      if (path === "/v1/payments") return { operation: "authorize", amount };
      if (path === "/v1/reports") return { operation: "lookup" };
      const action = /^\/v1\/payments\/[^/]+\/(completions|returns|void)$/.exec(path)?.[1] as keyof typeof FOLLOW_UPS | undefined;
      return action ? { operation: FOLLOW_UPS[action], amount } : undefined;
    },
    // The ErrorResponse for a malformed request (gateway code 314, category 3).
    refusal: () =>
      Response.json(
        { code: GATEWAY.missingOrInvalid.code, category: GATEWAY.missingOrInvalid.category, message: GATEWAY.missingOrInvalid.message, reference: "" },
        { status: GATEWAY.missingOrInvalid.status },
      ),
  },
  // An account takes its one currency (CAD or USD), in its country.
  merchantAccount(index) {
    const account = BAMBORA_SANDBOX_ACCOUNTS[index]!;
    return { acquirerMerchantId: account.merchantId, country: "CA", currencies: account.currency, credentials: bamboraSandboxCredentials(account) };
  },
  // Its variables of earlier versions were Online Checkout credentials, which the North America API
  // does not take: the test account's stand.
};
