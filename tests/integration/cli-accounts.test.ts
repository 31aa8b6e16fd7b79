// `npm run cli -- accounts ...` run as an operator runs it, against a test database: add, list,
// update, disable and test a merchant's acquirer accounts; bad input is a field error and saves
// nothing; credentials are never printed; every change is in the merchant's audit log.
import { mkdtempSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { createMerchant } from "@/lib/merchants/create-merchant";
import { CLEARHAUS_SANDBOX_ACCOUNTS } from "@/lib/sandboxes/acquirers/clearhaus/accounts";
import { FINARO_SANDBOX_ACCOUNTS } from "@/lib/sandboxes/acquirers/finaro/accounts";
import { WORLDLINE_SANDBOX_ACCOUNTS, createWorldlineSandbox } from "@/lib/sandboxes/acquirers/bambora/worldline";
import { startSandboxServer } from "@/lib/sandboxes/acquirers/serve";
import { operatorCli } from "../helpers/operator-cli";
import { useTestDatabase } from "../helpers/test-database";

const database = useTestDatabase();
const cli = operatorCli(() => database.current().url, "cps-cli-accounts-");
const finaro = FINARO_SANDBOX_ACCOUNTS[1]!;

const addFinaro = (merchantId: string, extra: string[] = []) =>
  cli.withInput(
    JSON.stringify({ signatureKey: finaro.signatureKey }),
    "accounts",
    "add",
    "--merchant",
    merchantId,
    "--processor",
    "finaro",
    "--name",
    "Finaro EUR",
    "--acquirer-merchant-id",
    finaro.merchantId,
    "--mcc",
    "5999",
    "--merchant-name",
    "Shop",
    "--country",
    "DK",
    "--descriptor",
    "Shop",
    "--currencies",
    "EUR",
    "--bin-visa",
    "411111",
    // The merchant id (not a secret) as an option, the signature key on standard input (decision 0160).
    "--credential",
    `merchantId=${finaro.merchantId}`,
    "--credentials-file",
    "-",
    "--json",
    ...extra,
  );

describe("npm run cli -- accounts", () => {
  it("adds, lists, updates and disables an account; never prints its credentials; audits each change", async () => {
    const { merchant } = await createMerchant({ name: "CLI Shop" });
    const added = await addFinaro(merchant.id);
    expect(added.stderr).toBe("");
    expect(added.code).toBe(0);
    expect(added.stdout).not.toContain(finaro.signatureKey);
    const account = JSON.parse(added.stdout) as { id: string; credentialsFingerprint: string; currencies: string[]; enabled: boolean };
    expect(account).toMatchObject({ currencies: ["EUR"], enabled: true, credentialsFingerprint: expect.stringMatching(/^[0-9a-f]{16}$/) });

    const listed = await cli("accounts", "list", "--merchant", merchant.id);
    expect(listed.stdout).toContain("Finaro EUR");
    expect(listed.stdout).toContain(account.credentialsFingerprint);
    expect(listed.stdout).not.toContain(finaro.signatureKey);

    const updated = await cli(
      "accounts",
      "update",
      "--merchant",
      merchant.id,
      "--account",
      account.id,
      "--currencies",
      "EUR,DKK",
      "--json",
    );
    expect(JSON.parse(updated.stdout)).toMatchObject({ before: { currencies: ["EUR"] }, after: { currencies: ["DKK", "EUR"] } });
    const disabled = await cli("accounts", "disable", "--merchant", merchant.id, "--account", account.id, "--json");
    expect(JSON.parse(disabled.stdout)).toMatchObject({ after: { enabled: false } });

    const audit = await db().auditEntry.findMany({ where: { merchantId: merchant.id }, orderBy: { createdAt: "asc" } });
    expect(audit.map((entry) => entry.action)).toEqual([
      "acquirer_account.created",
      "acquirer_account.updated",
      "acquirer_account.updated",
    ]);
    expect(JSON.stringify(audit)).not.toContain(finaro.signatureKey);
  });

  it("takes credentials from a file, and refuses bad input with the field named, saving nothing", async () => {
    const { merchant } = await createMerchant({ name: "Bad Input Shop" });
    const dir = mkdtempSync(path.join(os.tmpdir(), "cps-credentials-"));
    const file = path.join(dir, "clearhaus.json");
    writeFileSync(file, JSON.stringify({ apiKey: "not-a-uuid" }), { mode: 0o600 });
    const base = [
      "accounts",
      "add",
      "--merchant",
      merchant.id,
      "--processor",
      "clearhaus",
      "--name",
      "CH",
      "--merchant-name",
      "Shop",
      "--country",
      "DK",
      "--currencies",
      "DKK",
    ];
    /** Adds the account of `words` with these fields, its credentials from the file. */
    const add = (acquirerMerchantId: string, mcc: string, descriptor: string, words = base) =>
      cli(...words, "--acquirer-merchant-id", acquirerMerchantId, "--mcc", mcc, "--descriptor", descriptor, "--credentials-file", file);
    const badCredentials = await add(CLEARHAUS_SANDBOX_ACCOUNTS[0]!.merchantId, "5999", "Shop");
    expect(badCredentials.code).toBe(2);
    expect(badCredentials.stderr).toMatch(/credential\.apiKey: API key must be a UUID/);
    const badFields = await add("123", "59x9", "12345");
    expect(badFields.code).toBe(2);
    expect(badFields.stderr).toMatch(/mcc: /);
    writeFileSync(file, JSON.stringify({ apiKey: CLEARHAUS_SANDBOX_ACCOUNTS[0]!.apiKey }));
    const badDescriptor = await add(CLEARHAUS_SANDBOX_ACCOUNTS[0]!.merchantId, "5999", "12345");
    expect(badDescriptor.stderr).toMatch(/descriptor: must not be all digits \(Clearhaus\)/);
    expect(await db().acquirerAccount.count({ where: { merchantId: merchant.id } })).toBe(0);
    expect(await db().auditEntry.count({ where: { merchantId: merchant.id } })).toBe(0);

    const good = await add(CLEARHAUS_SANDBOX_ACCOUNTS[0]!.merchantId, "5999", "Shop");
    expect(good.code).toBe(0);
    // A second enabled account at the same processor for the same currency is refused.
    const overlap = await add(
      CLEARHAUS_SANDBOX_ACCOUNTS[0]!.merchantId,
      "5999",
      "Shop",
      base.map((word) => (word === "CH" ? "CH 2" : word)),
    );
    expect(overlap.stderr).toMatch(/currencies: the enabled test clearhaus account “CH” already takes DKK/);
    expect(await db().acquirerAccount.count({ where: { merchantId: merchant.id } })).toBe(1);
  });
});

describe("npm run cli -- accounts, a bambora account on the Worldline platform (decision 0193)", () => {
  const worldline = WORLDLINE_SANDBOX_ACCOUNTS[0]!;
  const addWorldline = (merchantId: string, platform: string, stdin: string, extra: string[] = []) =>
    cli.withInput(
      stdin,
      "accounts",
      "add",
      "--merchant",
      merchantId,
      "--processor",
      "bambora",
      "--platform",
      platform,
      "--name",
      "Bambora DK",
      "--acquirer-merchant-id",
      "81234567",
      "--mcc",
      "5999",
      "--merchant-name",
      "Shop",
      "--country",
      "DK",
      "--descriptor",
      "Shop",
      "--currencies",
      "DKK,EUR",
      "--credential",
      `merchantId=${worldline.merchantId}`,
      "--credential",
      `apiKeyId=${worldline.apiKeyId}`,
      "--credentials-file",
      "-",
      "--json",
      ...extra,
    );

  it("adds it with --platform worldline, its secret on standard input; lists it with its platform; tests it against the platform's endpoint", async () => {
    const { merchant } = await createMerchant({ name: "CLI Worldline Shop" });
    const added = await addWorldline(merchant.id, "worldline", JSON.stringify({ secretApiKey: worldline.secretApiKey }));
    expect(added.stderr).toBe("");
    expect(added.code).toBe(0);
    expect(added.stdout).not.toContain(worldline.secretApiKey);
    const account = JSON.parse(added.stdout) as { id: string };
    expect(await db().acquirerAccount.findUniqueOrThrow({ where: { id: account.id } })).toMatchObject({
      processor: "bambora",
      platform: "worldline",
      currencies: ["DKK", "EUR"],
    });
    const listed = await cli("accounts", "list", "--merchant", merchant.id);
    expect(listed.stdout).toContain("bambora (Worldline Direct)  “Bambora DK”");

    // `accounts test` reaches the platform's endpoint the operator configured (here a Worldline sandbox).
    const sandbox = createWorldlineSandbox({});
    const server = await startSandboxServer({ name: "worldline", handler: sandbox.handler });
    const saved = process.env.BAMBORA_WORLDLINE_TEST_BASE_URL;
    process.env.BAMBORA_WORLDLINE_TEST_BASE_URL = server.url;
    try {
      const tested = await cli("accounts", "test", "--merchant", merchant.id, "--account", account.id);
      expect(tested.stdout).toContain("OK: GET /services/testconnection: HTTP 200, Worldline accepted the API key");
      expect(tested.code).toBe(0);
    } finally {
      if (saved === undefined) delete process.env.BAMBORA_WORLDLINE_TEST_BASE_URL;
      else process.env.BAMBORA_WORLDLINE_TEST_BASE_URL = saved;
      await server.close();
    }
  });

  it("refuses an unknown platform, Bambora North America's fields for a Worldline account, and the secret on the command line, saving nothing", async () => {
    const { merchant } = await createMerchant({ name: "CLI Worldline Refusals" });
    const unknown = await addWorldline(merchant.id, "europe", JSON.stringify({ secretApiKey: worldline.secretApiKey }));
    expect(unknown.stderr).toMatch(/platform: bambora has no platform europe: north-america or worldline/);
    const wrongFields = await addWorldline(merchant.id, "worldline", JSON.stringify({ paymentsPasscode: "abc" }));
    expect(wrongFields.stderr).toMatch(/credential\.secretApiKey/);
    const onCommandLine = await addWorldline(merchant.id, "worldline", "{}", ["--credential", `secretApiKey=${worldline.secretApiKey}`]);
    expect(onCommandLine.stderr).toMatch(/secretApiKey is a secret/);
    expect(await db().acquirerAccount.count({ where: { merchantId: merchant.id } })).toBe(0);
  });
});

