// Local mode: the demo merchant gets an acquirer account at each processor, under the first sandbox
// account's credentials (lib/sandboxes/acquirers/sandbox-accounts.ts), or under the process-wide
// FINARO_*, CLEARHAUS_* variables when they are set (an outside `npm run sandbox`, or a
// test account of the real acquirer). Those variables are read for nothing else, and a production
// start refuses them (lib/env.ts). Processors where the merchant already has an account are left alone.
import { db } from "../db";
import { legacyAcquirerCredentials, type LegacyAcquirerCredentials } from "../env";
import { createAcquirerAccount } from "../processors/accounts/create-acquirer-account";
import { PROCESSOR_NAMES, type ProcessorName } from "../processors/types";
import {
  BAMBORA_SANDBOX_ACCOUNTS,
  CLEARHAUS_SANDBOX_ACCOUNTS,
  FINARO_SANDBOX_ACCOUNTS,
  bamboraSandboxCredentials,
} from "./acquirers/sandbox-accounts";

/** The sandbox account `index` (0, 1 or 2) of `processor` as account input: credentials and the acquirer's view of it. */
export function sandboxAccountInput(processor: ProcessorName, index = 0, overrides: Record<string, unknown> = {}): Record<string, unknown> {
  const common = {
    processor,
    name: `${processor} sandbox${index === 0 ? "" : ` ${index + 1}`}`,
    acquirerBins: { visa: `41111${index}`, mastercard: `52222${index}` },
    mcc: "5999",
    merchantName: "Demo Shop",
    country: "DK",
    descriptor: "Demo Shop",
    currencies: "any",
    mode: "test",
  };
  switch (processor) {
    case "finaro": {
      const account = FINARO_SANDBOX_ACCOUNTS[index]!;
      return { ...common, acquirerMerchantId: account.merchantId, credentials: { ...account }, ...overrides };
    }
    case "clearhaus": {
      const account = CLEARHAUS_SANDBOX_ACCOUNTS[index]!;
      return {
        ...common,
        acquirerMerchantId: account.merchantId,
        mcc: account.mcc,
        country: account.country,
        credentials: { apiKey: account.apiKey },
        ...overrides,
      };
    }
    // A Bambora North America account takes its one currency (CAD or USD), in its country.
    case "bambora": {
      const account = BAMBORA_SANDBOX_ACCOUNTS[index]!;
      return {
        ...common,
        acquirerMerchantId: account.merchantId,
        country: "CA",
        currencies: account.currency,
        credentials: bamboraSandboxCredentials(account),
        ...overrides,
      };
    }
  }
}

/** The variables' credentials (and the MID or merchant number they name) in place of the sandbox's. */
function legacyOverrides(processor: ProcessorName, legacy: LegacyAcquirerCredentials): Record<string, unknown> {
  switch (processor) {
    case "finaro":
      return legacy.finaro ? { credentials: legacy.finaro, acquirerMerchantId: legacy.finaro.merchantId } : {};
    case "clearhaus":
      return legacy.clearhaus ? { credentials: legacy.clearhaus } : {};
    // BAMBORA_* of earlier versions were Bambora Online Checkout credentials, which the North
    // America API does not take: the sandbox account's stand.
    case "bambora":
      return {};
  }
}

/** Gives `merchantId` a sandbox account at every processor it has none at; returns the processors given one. */
export async function addSandboxAccounts(merchantId: string, { index = 0 }: { index?: number } = {}): Promise<ProcessorName[]> {
  const legacy = index === 0 ? legacyAcquirerCredentials() : {};
  const added: ProcessorName[] = [];
  for (const processor of PROCESSOR_NAMES) {
    if (await db().acquirerAccount.findFirst({ where: { merchantId, processor }, select: { id: true } })) continue;
    const input = sandboxAccountInput(processor, index, legacyOverrides(processor, legacy));
    await createAcquirerAccount({ merchantId, input });
    added.push(processor);
  }
  return added;
}
