// Local mode: the demo merchant gets an acquirer account at each processor, under the first sandbox
// account's credentials (lib/sandboxes/acquirers/<name>/accounts.ts), or under the process-wide
// variables of earlier versions when they are set (an outside `npm run sandbox`, or a test account of
// the real acquirer). Those variables are read for nothing else, and a production start refuses them
// (lib/acquirers/environment.ts). Processors where the merchant already has an account are left alone.
// The demo merchant's accounts also get the reporting sandbox's client credentials where the sandbox
// has a reporting API (Clearhaus' Merchant API), so the dispute and settlement pollers import from it
// locally (addSandboxReportingCredentials; not for every merchant the tests make: one sandbox client
// sees one sandbox account, whose disputes would then be imported by all of them).
import { db } from "../db";
import { legacyAcquirerCredentials } from "../acquirers/environment";
import { ACQUIRER_NAMES, type AcquirerName } from "../acquirers/names";
import { createAcquirerAccount } from "../routing/accounts/create-acquirer-account";
import { reportingRulesOnly } from "../routing/accounts/reporting-access";
import { setReportingCredentials } from "../routing/accounts/set-reporting-credentials";
import { SANDBOXES, type PlatformSandbox } from "./acquirers";

/** The sandbox account `index` (0, 1 or 2) of `processor` as account input: credentials and the acquirer's view of it. */
export function sandboxAccountInput(processor: AcquirerName, index = 0, overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    processor,
    name: `${processor} sandbox${index === 0 ? "" : ` ${index + 1}`}`,
    // Each acquirer has BINs of its own: an AReq shows which account it authenticates for.
    acquirerBins: { visa: `4${ACQUIRER_NAMES.indexOf(processor) + 1}111${index}`, mastercard: `52${ACQUIRER_NAMES.indexOf(processor) + 1}22${index}` },
    mcc: "5999",
    merchantName: "Demo Shop",
    country: "DK",
    descriptor: "Demo Shop",
    currencies: "any",
    mode: "test",
    ...SANDBOXES[processor].merchantAccount(index),
    ...overrides,
  };
}

/**
 * The sandbox account `index` of a platform other than its acquirer's first (docs/decisions/0193) as
 * account input: the platform's own credentials and currencies on the acquirer's account fields.
 */
export function platformSandboxAccountInput(sandbox: PlatformSandbox, index = 0, overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    ...sandboxAccountInput(sandbox.processor, index),
    name: `${sandbox.processor} ${sandbox.platform} sandbox${index === 0 ? "" : ` ${index + 1}`}`,
    platform: sandbox.platform,
    ...sandbox.accountInput(index),
    ...overrides,
  };
}

/**
 * Gives the merchant's sandbox test account `index` at `processor` (found by the sandbox's merchant
 * id) the reporting sandbox's client credentials, when the sandbox has a reporting API and the
 * account has none yet (a data folder from before issue 40 gets them at its next start).
 */
async function addAccountReportingCredentials(merchantId: string, processor: AcquirerName, index: number): Promise<boolean> {
  const reporting = SANDBOXES[processor].reporting;
  if (!reporting) return false;
  const account = await db().acquirerAccount.findFirst({
    where: {
      merchantId,
      processor,
      mode: "test",
      acquirerMerchantId: SANDBOXES[processor].merchantAccount(index).acquirerMerchantId,
      reportingCredentialsSealed: null,
    },
    select: { id: true },
  });
  if (!account) return false;
  await setReportingCredentials({
    merchantId,
    accountId: account.id,
    credentials: reporting.credentials(index),
    // Seeding runs in the launcher before the service starts its sandboxes: the module's rules only.
    accessFor: reportingRulesOnly,
  });
  return true;
}

/** Gives `merchantId` a sandbox account at every processor it has none at; returns the processors given one. */
export async function addSandboxAccounts(merchantId: string, { index = 0 }: { index?: number } = {}): Promise<AcquirerName[]> {
  const legacy = index === 0 ? legacyAcquirerCredentials() : {};
  const added: AcquirerName[] = [];
  for (const processor of ACQUIRER_NAMES) {
    if (await db().acquirerAccount.findFirst({ where: { merchantId, processor }, select: { id: true } })) continue;
    const credentials = legacy[processor];
    const input = sandboxAccountInput(processor, index, credentials ? SANDBOXES[processor].legacyMerchantAccount?.(credentials) : {});
    await createAcquirerAccount({ merchantId, input });
    added.push(processor);
  }
  return added;
}

/**
 * Gives the merchant's sandbox test accounts (addSandboxAccounts) the reporting sandboxes' client
 * credentials where they have none; returns the processors given them. Not where earlier versions'
 * variables stand for the sandbox account: that acquirer's reporting API would not know the client.
 */
export async function addSandboxReportingCredentials(merchantId: string, { index = 0 }: { index?: number } = {}): Promise<AcquirerName[]> {
  const legacy = index === 0 ? legacyAcquirerCredentials() : {};
  const given: AcquirerName[] = [];
  for (const processor of ACQUIRER_NAMES) {
    if (!legacy[processor] && (await addAccountReportingCredentials(merchantId, processor, index))) given.push(processor);
  }
  return given;
}
