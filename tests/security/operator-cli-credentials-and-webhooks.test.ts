// Security review 4, L5 and L6, with the operator CLI run as an operator runs it (a process, its
// command line, its standard input, a terminal), against a real database.
// L5: `accounts add|update --credential signatureKey=…` put acquirer secrets on the command line (ps,
// /proc/<pid>/cmdline, shell history), in production too. Secrets now come from a file, standard input
// or a prompt; --credential takes the fields that are not secrets only.
// L6: `webhooks add|disable|roll-secret` failed with "Unknown option '--url'": an operator could not
// cut off a compromised endpoint or roll its secret from the CLI.
import { spawn } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { config } from "@/lib/env";
import { FINARO_SANDBOX_ACCOUNTS } from "@/lib/sandboxes/acquirers/finaro/accounts";
import { createMerchant } from "@/lib/merchants/create-merchant";
import { operatorCli } from "@/tests/helpers/operator-cli";
import { useTestDatabase } from "@/tests/helpers/test-database";
import { RUN_SCRIPT } from "@/tests/helpers/service-process";

const database = useTestDatabase();
const cli = operatorCli(() => database.current().url, "cps-cli-l5-");
const finaro = FINARO_SANDBOX_ACCOUNTS[1]!;

/** A merchant without acquirer accounts (the factories' merchants have the sandboxes' already). */
const bareMerchant = async () => (await createMerchant({ name: "CLI Shop" })).merchant.id;

const accountFields = (merchantId: string) => [
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
  "--json",
];

/** The CLI in a pseudo-terminal (util-linux `script`), answering each prompt when it appears. */
function cliInTerminal(args: string[], answers: Array<[prompt: string, answer: string]>): Promise<{ code: number; output: string }> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), "cps-cli-tty-"));
  const command = [process.execPath, RUN_SCRIPT, "cli", ...args].map((word) => `'${word.replaceAll("'", "'\\''")}'`).join(" ");
  return new Promise((resolve, reject) => {
    const child = spawn("script", ["-qefc", command, "/dev/null"], {
      env: {
        ...process.env,
        DATABASE_URL: database.current().url,
        DATA_DIR: dataDir,
        SESSION_SECRET: config().secrets.sessionSecret,
        CARD_DATA_KEY: config().secrets.cardDataKey,
        API_KEY_SECRET: config().secrets.apiKeySecret,
      },
      stdio: ["pipe", "pipe", "pipe"],
    });
    let output = "";
    const pending = [...answers];
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const next = pending[0];
      if (next && output.includes(next[0])) {
        pending.shift();
        child.stdin.write(`${next[1]}\r`);
      }
    };
    child.stdout.on("data", onData);
    child.stderr.on("data", onData);
    child.on("error", reject);
    child.on("close", (code) => resolve({ code: code ?? 1, output }));
    setTimeout(() => child.kill("SIGKILL"), 90_000).unref();
  });
}

// Each CLI run compiles and starts a process (seconds each, more on a loaded machine).
const SLOW = { timeout: 600_000 };

describe("L5: acquirer credentials never on the CLI's command line", SLOW, () => {
  it("L5: a secret given as --credential (finaro signatureKey, clearhaus apiKey, a bambora passcode) is refused, naming the file and standard-input ways, and saves nothing", async () => {
    const merchantId = await bareMerchant();
    for (const secret of ["signatureKey=finaro-sandbox-signature-key-2", "apiKey=7d5e1f2a-3b4c-4d6e-8f90-a1b2c3d4e502", "paymentsPasscode=abc"]) {
      const result = await cli(...accountFields(merchantId), "--credential", `merchantId=${finaro.merchantId}`, "--credential", secret);
      expect(result.code, result.stderr).toBe(2);
      expect(result.stderr).toContain(`--credential ${secret.split("=")[0]}=… is not accepted`);
      expect(result.stderr).toContain("--credentials-file <file>");
      expect(result.stderr).toContain("--credentials-file -");
      // The refusal does not repeat the secret either.
      expect(result.stderr + result.stdout).not.toContain(secret.split("=")[1]);
    }
    expect(await db().acquirerAccount.count({ where: { merchantId } })).toBe(0);
    // accounts update refuses it the same way.
    const update = await cli("accounts", "update", "--merchant", merchantId, "--account", "0".repeat(32), "--credential", "signatureKey=zzzzzzzzzz");
    expect(update.code).toBe(2);
    expect(update.stderr).toContain("--credential signatureKey=… is not accepted");
  });

  it("L5: the secret comes from a file (with the non-secret merchant id on the command line), or as JSON on standard input", async () => {
    const merchantId = await bareMerchant();
    const file = path.join(mkdtempSync(path.join(os.tmpdir(), "cps-l5-")), "finaro.json");
    writeFileSync(file, JSON.stringify({ signatureKey: finaro.signatureKey }), { mode: 0o600 });
    const fromFile = await cli(...accountFields(merchantId), "--credential", `merchantId=${finaro.merchantId}`, "--credentials-file", file);
    expect(fromFile.code, fromFile.stderr).toBe(0);
    expect(fromFile.stdout).not.toContain(finaro.signatureKey);

    const other = { merchantId: await bareMerchant() };
    const fromStdin = await cli.withInput(JSON.stringify({ merchantId: finaro.merchantId, signatureKey: finaro.signatureKey }), ...accountFields(other.merchantId), "--credentials-file", "-");
    expect(fromStdin.code, fromStdin.stderr).toBe(0);
    const [first, second] = [JSON.parse(fromFile.stdout), JSON.parse(fromStdin.stdout)] as Array<{ credentialsFingerprint: string }>;
    // The same credentials, however they came in.
    expect(first!.credentialsFingerprint).toBe(second!.credentialsFingerprint);

    // Not JSON on standard input: a clear refusal that does not quote what was sent.
    const garbled = { merchantId: await bareMerchant() };
    const bad = await cli.withInput(`signatureKey=${finaro.signatureKey}`, ...accountFields(garbled.merchantId), "--credentials-file", "-");
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain("standard input is not a JSON object");
    expect(bad.stderr).not.toContain(finaro.signatureKey);
    expect(await db().acquirerAccount.count({ where: { merchantId: garbled.merchantId } })).toBe(0);
  });

  it("L5: in a terminal, --credentials-file - asks for each field and does not echo the secret", async () => {
    const merchantId = await bareMerchant();
    const { code, output } = await cliInTerminal(
      [...accountFields(merchantId), "--credentials-file", "-"],
      [
        ["Merchant id (M): ", finaro.merchantId],
        ["Signature key: ", finaro.signatureKey],
      ],
    );
    expect(code, output).toBe(0);
    expect(output).toContain("Signature key: ");
    expect(output).not.toContain(finaro.signatureKey);
    const account = await db().acquirerAccount.findFirstOrThrow({ where: { merchantId }, select: { acquirerMerchantId: true } });
    expect(account.acquirerMerchantId).toBe(finaro.merchantId);
  });
});

describe("L6: the webhooks commands run from the command line", SLOW, () => {
  it("L6: webhooks add, list, roll-secret and disable take their documented options; an undeclared option is refused by name", async () => {
    const merchantId = await bareMerchant();
    const added = await cli("webhooks", "add", "--merchant", merchantId, "--mode", "test", "--url", "https://shop.example/ledger", "--kinds", "capture,refund,payment-details", "--description", "ledger", "--json");
    expect(added.code, added.stderr).toBe(0);
    const endpoint = JSON.parse(added.stdout) as { id: string; signingsecret: string; kinds: string[] };
    expect(endpoint.signingsecret).toMatch(/^whsec_/);
    expect(endpoint.kinds).toEqual(["capture", "refund", "payment-details"]);

    const listed = await cli("webhooks", "list", "--merchant", merchantId);
    expect(listed.stdout).toContain(endpoint.id);
    expect(listed.stdout).not.toContain(endpoint.signingsecret);

    const rolled = await cli("webhooks", "roll-secret", "--merchant", merchantId, "--endpoint", endpoint.id, "--overlap-seconds", "3600", "--json");
    expect(rolled.code, rolled.stderr).toBe(0);
    expect(JSON.parse(rolled.stdout).signingsecret).toMatch(/^whsec_/);

    const disabled = await cli("webhooks", "disable", "--merchant", merchantId, "--endpoint", endpoint.id, "--json");
    expect(disabled.code, disabled.stderr).toBe(0);
    expect(JSON.parse(disabled.stdout)).toMatchObject({ id: endpoint.id, enabled: false });
    expect((await db().webhookEndpoint.findUniqueOrThrow({ where: { id: endpoint.id } })).enabled).toBe(false);
    const audit = await db().auditEntry.findMany({ where: { merchantId, target: endpoint.id }, orderBy: { createdAt: "asc" } });
    expect(audit.map((entry) => entry.action)).toEqual(["webhook_endpoint.created", "webhook_endpoint.secret_rolled", "webhook_endpoint.disabled"]);

    const unknown = await cli("webhooks", "disable", "--merchant", merchantId, "--endpoint", endpoint.id, "--url", "https://x.example");
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain("webhooks disable does not take --url (its options: --merchant, --endpoint, --json)");
  });
});
