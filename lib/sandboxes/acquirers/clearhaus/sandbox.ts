// The Clearhaus sandbox as the launcher starts it: form-encoded requests per resource.
import type { AcquirerSandbox } from "../acquirer-sandbox";
import { fieldNumber, type AcquirerOperation } from "../faults";
import { CLEARHAUS_SANDBOX_ACCOUNTS } from "./accounts";
import { createClearhausSandbox } from "./index";
import { createClearhausMerchantApiSandbox } from "./merchant-api";
import { MERCHANT_API_SANDBOX_CLIENTS } from "./merchant-api/clients";

const FOLLOW_UPS = { captures: "capture", refunds: "refund", voids: "void" } as const satisfies Record<string, AcquirerOperation>;

export const clearhausSandbox: AcquirerSandbox = {
  name: "clearhaus",
  path: "",
  create: ({ hangMs, extensions }) => createClearhausSandbox({ hangMs, extensions }),
  faults: {
    classify({ method, path, body }) {
      if (method !== "POST") return undefined;
      const amount = fieldNumber(new URLSearchParams(body).get("amount"));
      if (path === "/authorizations") return { operation: "authorize", amount };
      if (path === "/credits") return { operation: "payout", amount };
      const action = /\/(captures|refunds|voids)$/.exec(path)?.[1] as keyof typeof FOLLOW_UPS | undefined;
      return action ? { operation: FOLLOW_UPS[action], amount } : undefined;
    },
    refusal: () => Response.json({ status: { code: 40000, message: "parameter is invalid" } }, { status: 400 }),
  },
  merchantAccount(index) {
    const account = CLEARHAUS_SANDBOX_ACCOUNTS[index]!;
    return { acquirerMerchantId: account.merchantId, mcc: account.mcc, country: account.country, credentials: { apiKey: account.apiKey } };
  },
  legacyMerchantAccount: (credentials) => ({ credentials }),
  // The Merchant API (disputes and settlements) over the gateway sandbox's ledger; evidence uploads
  // need more than the gateway's small form bodies (our evidence limit is 5 MB, decision 0196).
  reporting: {
    create: createClearhausMerchantApiSandbox,
    maxBodyBytes: 8 * 1024 * 1024,
    credentials(index) {
      const client = MERCHANT_API_SANDBOX_CLIENTS[index]!;
      return { clientId: client.clientId, clientSecret: client.clientSecret };
    },
  },
};
