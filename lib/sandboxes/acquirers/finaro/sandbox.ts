// The Finaro sandbox as the launcher starts it: one gateway endpoint, form-encoded requests.
import type { AcquirerSandbox } from "../acquirer-sandbox";
import { fieldNumber, type AcquirerOperation } from "../faults";
import { FINARO_SANDBOX_ACCOUNTS } from "./accounts";
import { createFinaroSandbox, FINARO_SANDBOX_PATH } from "./index";

/** Finaro's `O` codes ([AM-CR] ACTIONS; 101 the retrieval) as the operations a fault matches. */
const OPERATIONS: Record<string, AcquirerOperation> = {
  "1": "authorize",
  "2": "authorize",
  "3": "capture",
  "4": "void",
  "5": "refund",
  "35": "payout",
  "101": "lookup",
};

export const finaroSandbox: AcquirerSandbox = {
  name: "finaro",
  path: FINARO_SANDBOX_PATH,
  create: ({ hangMs, extensions }) => createFinaroSandbox({ hangMs, extensions }),
  faults: {
    classify({ method, body }) {
      if (method !== "POST") return undefined;
      const fields = Object.fromEntries(new URLSearchParams(body));
      const operation = OPERATIONS[fields.O ?? ""];
      return operation ? { operation, amount: fieldNumber(fields.a4) } : undefined;
    },
    // Finaro's recorded refusals: lower-case keys, no K ([AM-CR-U] "Card cannot be identified").
    refusal: () =>
      new Response(new URLSearchParams({ z2: "-9", z3: "Request is malformed" }).toString(), {
        status: 200,
        headers: { "content-type": "application/x-www-form-urlencoded" },
      }),
  },
  merchantAccount(index) {
    const account = FINARO_SANDBOX_ACCOUNTS[index]!;
    return { acquirerMerchantId: account.merchantId, credentials: { ...account } };
  },
  legacyMerchantAccount: (credentials) => ({ credentials, acquirerMerchantId: credentials.merchantId }),
};
