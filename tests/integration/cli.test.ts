// The operator CLI, run as a user runs it, against a test database.
import { exec } from "node:child_process";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { hashApiKey } from "@/lib/api-keys/api-key-secret";
import { verifyPassword } from "@/lib/auth/password";
import { operatorCli } from "../helpers/operator-cli";
import { useTestDatabase } from "../helpers/test-database";
import { signingSecretOf } from "@/tests/helpers/merchant-factories";

const runShell = promisify(exec);
const database = useTestDatabase();
const cli = operatorCli(() => database.current().url, "cps-cli-");

describe("npm run cli", () => {
  it("merchant create --json prints a merchant id and a test and a live API key that authenticate as that merchant", async () => {
    const result = await cli("merchant", "create", "--name", "Shop", "--json");
    expect(result.code).toBe(0);
    const output = JSON.parse(result.stdout) as { merchantid: string; apikey: string; testapikey: string; liveapikey: string; name: string };
    expect(output.merchantid).toMatch(/^\d{12}$/);
    expect(output.testapikey).toMatch(/^cps_test_[0-9A-Za-z]{40}$/);
    expect(output.liveapikey).toMatch(/^cps_live_[0-9A-Za-z]{40}$/);
    // `apikey` is the key of the service's default mode: test locally (live in production).
    expect(output.apikey).toBe(output.testapikey);
    expect(output.name).toBe("Shop");
    for (const [apiKey, mode] of [[output.testapikey, "test"], [output.liveapikey, "live"]] as const) {
      const key = await db().apiKey.findUniqueOrThrow({ where: { hash: hashApiKey(apiKey) } });
      expect(key).toMatchObject({ merchantId: output.merchantid, revokedAt: null, mode, prefix: apiKey.slice(0, 16) });
    }
    const routing = await db().processorRouting.findMany({ where: { merchantId: output.merchantid }, orderBy: { rule: "asc" } });
    expect(routing.map((r) => r.rule)).toEqual([1, 2]);
  });

  it("merchant create prints the merchant's notification signing secrets, live and test (the ones its notifications are signed with)", async () => {
    const json = await cli("merchant", "create", "--name", "Signed", "--json");
    expect(json.code).toBe(0);
    const output = JSON.parse(json.stdout) as { merchantid: string; notificationsecret: string; testnotificationsecret: string };
    expect(output.notificationsecret).toMatch(/^whsec_[A-Za-z0-9+/]+=*$/);
    expect(output.notificationsecret).toBe(await signingSecretOf(output.merchantid, "live"));
    expect(output.testnotificationsecret).toBe(await signingSecretOf(output.merchantid, "test"));
    expect(output.testnotificationsecret).not.toBe(output.notificationsecret);
    const text = await cli("merchant", "create", "--name", "Signed text");
    expect(text.code).toBe(0);
    const merchantid = /merchantid\s+(\d{12})/.exec(text.stdout)?.[1];
    expect(text.stdout).toContain(`Live notification signing secret  ${await signingSecretOf(merchantid!, "live")}`);
    expect(text.stdout).toContain(`Test notification signing secret  ${await signingSecretOf(merchantid!, "test")}`);
  });

  it("apikey create adds a second key for an existing merchant, and refuses an unknown merchant", async () => {
    const { merchantid } = JSON.parse((await cli("merchant", "create", "--name", "Second", "--json")).stdout);
    const created = await cli("apikey", "create", "--merchant", merchantid, "--name", "ci", "--json");
    expect(created.code).toBe(0);
    const { apikey, prefix, mode } = JSON.parse(created.stdout);
    expect(apikey.startsWith(prefix)).toBe(true);
    expect(mode).toBe("test");
    const live = JSON.parse((await cli("apikey", "create", "--merchant", merchantid, "--mode", "live", "--json")).stdout);
    expect(live).toMatchObject({ mode: "live", apikey: expect.stringMatching(/^cps_live_/) });
    // The merchant's test and live keys, and the two made here.
    expect(await db().apiKey.count({ where: { merchantId: merchantid } })).toBe(4);
    expect((await cli("apikey", "create", "--merchant", merchantid, "--mode", "staging")).code).not.toBe(0);
    const unknown = await cli("apikey", "create", "--merchant", "000000000000");
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain("no merchant with id 000000000000");
  });

  it("user create stores an argon2id hash, and refuses a short password or a duplicate email", async () => {
    const { merchantid } = JSON.parse((await cli("merchant", "create", "--name", "Third", "--json")).stdout);
    const created = await cli.withInput("correct horse battery\n", "user", "create", "--merchant", merchantid, "--email", "Ops@Example.com", "--name", "Ops", "--role", "developer", "--json");
    expect(created.code).toBe(0);
    expect(JSON.parse(created.stdout)).toMatchObject({ email: "ops@example.com", role: "developer", merchantid });
    const user = await db().user.findUniqueOrThrow({ where: { email: "ops@example.com" } });
    expect(user.passwordHash).toMatch(/^\$argon2id\$/);
    expect(await verifyPassword(user.passwordHash, "correct horse battery")).toBe(true);
    const short = await cli.withInput("short\n", "user", "create", "--merchant", merchantid, "--email", "b@example.com", "--name", "B");
    expect(short.code).toBe(2);
    expect(short.stderr).toContain("password: Use at least 12 characters");
    const duplicate = await cli.withInput("another long passphrase\n", "user", "create", "--merchant", merchantid, "--email", "ops@example.com", "--name", "Ops");
    expect(duplicate.code).toBe(1);
    expect(duplicate.stderr).toContain("already exists");
  });

  it("npm run -s cli -- merchant list --json piped into a JSON parser gets JSON only (log lines on standard error)", async () => {
    // As the README writes it, through npm and a shell pipe: npm's banner (-s) and the service's log
    // lines (merchant create logs an audit line per key) must stay off standard output.
    const parse = `node -e 'let s = ""; process.stdin.on("data", (d) => (s += d)).on("end", () => console.log(JSON.parse(s).merchantid))'`;
    const created = await runShell(`npm run -s cli -- merchant create --name Piped --json | ${parse}`, {
      env: { ...process.env, DATABASE_URL: database.current().url },
    });
    expect(created.stdout.trim()).toMatch(/^\d{12}$/);
    const { stdout } = await runShell(
      `npm run -s cli -- merchant list --json | node -e 'let s = ""; process.stdin.on("data", (d) => (s += d)).on("end", () => console.log(JSON.stringify(JSON.parse(s).map((m) => m.name))))'`,
      { env: { ...process.env, DATABASE_URL: database.current().url } },
    );
    expect(JSON.parse(stdout)).toContain("Piped");
  });

  it("explains its usage for an unknown command: the commands of that word, and where the whole list is", async () => {
    const result = await cli("merchant", "explode");
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("unknown command: merchant explode (merchant takes: merchant create, merchant list)");
    expect(result.stderr).toContain("npm run -s cli -- --help lists every command and option");
    const help = await cli("--help");
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/^usage: npm run -s cli -- <command> \[options\] \[--json\]/);
  });

  it("refuses an option the command does not declare, before it opens the database, naming the command's options", async () => {
    const result = await cli("merchant", "list", "--merchant", "123");
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("merchant list does not take --merchant (its options: none, --json)");
    const missing = await cli("payout-limits", "set", "--merchant", "123", "--currency", "DKK");
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain("payout-limits set needs --per-payout <minor units> --per-day <minor units>");
  });
});
