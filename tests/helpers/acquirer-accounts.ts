// Acquirer accounts for tests: the sandboxes' own test accounts (lib/sandboxes/acquirers/<name>/accounts.ts)
// as merchant accounts in the database, and connectors bound to them for contract tests.
import { mkdtempSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { createBamboraConnector } from "@/lib/acquirers/bambora/client";
import { createClearhausConnector } from "@/lib/acquirers/clearhaus/client";
import type { ProcessorCredentials } from "@/lib/acquirers/credentials";
import { createFinaroConnector } from "@/lib/acquirers/finaro/client";
import { bindCredentials } from "@/lib/acquirers/registry";
import type { ProcessorConnector } from "@/lib/acquirers/contract";
import type { AcquirerName } from "@/lib/acquirers/names";
import { FINARO_SANDBOX_PATH } from "@/lib/sandboxes/acquirers/finaro";
import { BAMBORA_SANDBOX_ACCOUNTS, bamboraSandboxCredentials } from "@/lib/sandboxes/acquirers/bambora/accounts";
import { CLEARHAUS_SANDBOX_ACCOUNTS, CLEARHAUS_SANDBOX_SIGNING_PARTNERS } from "@/lib/sandboxes/acquirers/clearhaus/accounts";
import { FINARO_SANDBOX_ACCOUNTS } from "@/lib/sandboxes/acquirers/finaro/accounts";
import type { RunningSandboxes } from "@/lib/sandboxes/acquirers/start-sandboxes";

import { sandboxAccountInput } from "@/lib/sandboxes/sandbox-merchant-accounts";

export { addSandboxAccounts, sandboxAccountInput } from "@/lib/sandboxes/sandbox-merchant-accounts";

/** The credentials of sandbox account `index` of `name`. */
export function sandboxCredentials(name: AcquirerName, index = 0): ProcessorCredentials {
  switch (name) {
    case "finaro":
      return { processor: name, credentials: { ...FINARO_SANDBOX_ACCOUNTS[index]! } };
    case "clearhaus":
      return { processor: name, credentials: { apiKey: CLEARHAUS_SANDBOX_ACCOUNTS[index]!.apiKey } };
    case "bambora":
      return { processor: name, credentials: bamboraSandboxCredentials(BAMBORA_SANDBOX_ACCOUNTS[index]!) };
  }
}

/** Clearhaus sandbox account `index` signing as the sandbox's partner (the docs' demo key). */
export function clearhausSigningCredentials(index = 0): ProcessorCredentials {
  const partner = CLEARHAUS_SANDBOX_SIGNING_PARTNERS[0]!;
  return {
    processor: "clearhaus",
    credentials: {
      apiKey: CLEARHAUS_SANDBOX_ACCOUNTS[index]!.apiKey,
      signingApiKey: partner.signingApiKey,
      signingPrivateKey: partner.privateKeyPem,
    },
  };
}

/**
 * A connector at `baseUrl` (a running sandbox: Finaro's gateway path is added) bound to `account`'s
 * credentials. `extensions`: the sandbox runs with its extensions and the connector may use them (as
 * the registry allows for a registered sandbox); false: the connector treats it as the real gateway.
 */
export function connectorAt(
  baseUrl: string,
  account: ProcessorCredentials,
  timeoutMs = 5_000,
  accountId = "test-account",
  { extensions = true }: { extensions?: boolean } = {},
): ProcessorConnector {
  switch (account.processor) {
    case "finaro":
      return bindCredentials(
        createFinaroConnector({
          baseUrl: `${baseUrl}${FINARO_SANDBOX_PATH}`,
          timeoutMs,
          sandboxExtensions: extensions,
          verifyAnswerSignature: true,
        }),
        account.credentials,
        accountId,
        "test",
      );
    case "clearhaus":
      return bindCredentials(createClearhausConnector({ baseUrl, timeoutMs, sandboxExtensions: extensions }), account.credentials, accountId, "test");
    case "bambora":
      return bindCredentials(createBamboraConnector({ baseUrl, timeoutMs, sandboxExtensions: extensions }), account.credentials, accountId, "test");
  }
}

/** The connector of `name`'s running sandbox under its sandbox account `index`. */
export function sandboxConnector(
  sandboxes: RunningSandboxes,
  name: AcquirerName,
  { index = 0, timeoutMs = 5_000 }: { index?: number; timeoutMs?: number } = {},
): ProcessorConnector {
  return connectorAt(sandboxes.urls[name]!, sandboxCredentials(name, index), timeoutMs);
}

/**
 * The operator CLI's words that give `merchantId` the sandboxes' test account `index` at `processor`
 * (`accounts add ...`). The credentials go in a file (mode 0600), as an operator passes them: the CLI
 * refuses secrets on the command line.
 */
export function accountsAddArgs(merchantId: string, processor: AcquirerName, index = 0): string[] {
  const input = sandboxAccountInputFor(processor, index);
  const file = path.join(mkdtempSync(path.join(os.tmpdir(), "cps-credentials-")), `${processor}.json`);
  writeFileSync(file, JSON.stringify(input.credentials), { mode: 0o600 });
  const credentials = ["--credentials-file", file];
  const fields = ["--acquirer-merchant-id", input.acquirerMerchantId, "--mcc", "5999", "--merchant-name", "Test Shop", "--country", "DK"];
  return ["accounts", "add", "--merchant", merchantId, "--processor", processor, "--name", `${processor} sandbox`, ...fields, "--descriptor", "Test Shop", "--currencies", input.currencies, ...credentials];
}

function sandboxAccountInputFor(
  processor: AcquirerName,
  index: number,
): { acquirerMerchantId: string; currencies: string; credentials: Record<string, string> } {
  return sandboxAccountInput(processor, index) as { acquirerMerchantId: string; currencies: string; credentials: Record<string, string> };
}
