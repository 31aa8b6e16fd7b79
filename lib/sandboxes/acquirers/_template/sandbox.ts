// The Xacquirer sandbox as the launcher starts it. REPLACE the fault classification and the refusal
// with the acquirer's own paths and error format.
import type { AcquirerName } from "../../../acquirers/names";
import type { AcquirerSandbox } from "../acquirer-sandbox";
import { fieldNumber, type AcquirerOperation } from "../faults";
import { XACQUIRER_SANDBOX_ACCOUNTS } from "./accounts";
import { createXacquirerSandbox } from "./index";

const FOLLOW_UPS = { captures: "capture", refunds: "refund", voids: "void" } as const satisfies Record<string, AcquirerOperation>;

export const xacquirerSandbox: AcquirerSandbox = {
  name: "xacquirer" as AcquirerName,
  path: "",
  create: ({ hangMs, extensions }) => createXacquirerSandbox({ hangMs, extensions }),
  faults: {
    classify({ method, path, body }) {
      if (method !== "POST") return undefined;
      let amount: number | undefined;
      try {
        amount = fieldNumber((JSON.parse(body) as { amount?: unknown }).amount);
      } catch {
        return undefined;
      }
      if (path === "/authorizations") return { operation: "authorize", amount };
      if (path === "/payouts") return { operation: "payout", amount };
      const action = /\/(captures|refunds|voids)$/.exec(path)?.[1] as keyof typeof FOLLOW_UPS | undefined;
      return action ? { operation: FOLLOW_UPS[action], amount } : undefined;
    },
    refusal: () => Response.json({ error: { code: "invalid_request", message: "the request is malformed" } }, { status: 400 }),
  },
  merchantAccount(index) {
    const account = XACQUIRER_SANDBOX_ACCOUNTS[index]!;
    return { acquirerMerchantId: account.merchantId, credentials: { apiKey: account.apiKey } };
  },
};
