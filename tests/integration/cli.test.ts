// The operator CLI, run as a user runs it, against a test database.
import { execFile } from "node:child_process";
import { mkdtempSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { config } from "@/lib/env";
import { hashApiKey } from "@/lib/api-keys/api-key-secret";
import { verifyPassword } from "@/lib/auth/password";
import { useTestDatabase } from "../helpers/test-database";

const run = promisify(execFile);
const database = useTestDatabase();
const dataDir = mkdtempSync(path.join(os.tmpdir(), "cps-cli-"));

async function cli(...args: string[]): Promise<{ stdout: string; stderr: string; code: number }> {
  try {
    const { stdout, stderr } = await run(process.execPath, ["--import", "tsx", "scripts/cli.ts", ...args], {
      // The same secrets as this process, so keys the CLI makes can be checked here.
      env: {
        ...process.env,
        DATABASE_URL: database.current().url,
        DATA_DIR: dataDir,
        SESSION_SECRET: config().secrets.sessionSecret,
        CARD_DATA_KEY: config().secrets.cardDataKey,
        API_KEY_SECRET: config().secrets.apiKeySecret,
      },
    });
    return { stdout, stderr, code: 0 };
  } catch (error) {
    const failure = error as { stdout: string; stderr: string; code: number };
    return { stdout: failure.stdout, stderr: failure.stderr, code: failure.code };
  }
}

describe("npm run cli", () => {
  it("merchant create --json prints a merchant id and an API key that authenticates as that merchant", async () => {
    const result = await cli("merchant", "create", "--name", "Shop", "--json");
    expect(result.code).toBe(0);
    const output = JSON.parse(result.stdout) as { merchantid: string; apikey: string; name: string };
    expect(output.merchantid).toMatch(/^\d{12}$/);
    expect(output.apikey).toMatch(/^cps_[0-9A-Za-z]{40}$/);
    expect(output.name).toBe("Shop");
    const key = await db().apiKey.findUniqueOrThrow({ where: { hash: hashApiKey(output.apikey) } });
    expect(key.merchantId).toBe(output.merchantid);
    expect(key.revokedAt).toBeNull();
    expect(key.prefix).toBe(output.apikey.slice(0, 12));
    const routing = await db().processorRouting.findMany({ where: { merchantId: output.merchantid }, orderBy: { rule: "asc" } });
    expect(routing.map((r) => r.rule)).toEqual([1, 2]);
  });

  it("merchant create prints the merchant's notification signing secret (the one its notifications are signed with)", async () => {
    const json = await cli("merchant", "create", "--name", "Signed", "--json");
    expect(json.code).toBe(0);
    const output = JSON.parse(json.stdout) as { merchantid: string; notificationsecret: string };
    const stored = await db().merchant.findUniqueOrThrow({ where: { id: output.merchantid }, select: { notificationSecret: true } });
    expect(output.notificationsecret).toMatch(/^whsec_[A-Za-z0-9+/]+=*$/);
    expect(output.notificationsecret).toBe(stored.notificationSecret);
    const text = await cli("merchant", "create", "--name", "Signed text");
    expect(text.code).toBe(0);
    const merchantid = /merchantid\s+(\d{12})/.exec(text.stdout)?.[1];
    const secret = await db().merchant.findUniqueOrThrow({ where: { id: merchantid! }, select: { notificationSecret: true } });
    expect(text.stdout).toContain(`Notification signing secret  ${secret.notificationSecret}`);
  });

  it("apikey create adds a second key for an existing merchant, and refuses an unknown merchant", async () => {
    const { merchantid } = JSON.parse((await cli("merchant", "create", "--name", "Second", "--json")).stdout);
    const created = await cli("apikey", "create", "--merchant", merchantid, "--name", "ci", "--json");
    expect(created.code).toBe(0);
    const { apikey, prefix } = JSON.parse(created.stdout);
    expect(apikey.startsWith(prefix)).toBe(true);
    expect(await db().apiKey.count({ where: { merchantId: merchantid } })).toBe(2);
    const unknown = await cli("apikey", "create", "--merchant", "000000000000");
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain("no merchant with id 000000000000");
  });

  it("user create stores an argon2id hash, and refuses a short password or a duplicate email", async () => {
    const { merchantid } = JSON.parse((await cli("merchant", "create", "--name", "Third", "--json")).stdout);
    const created = await cli("user", "create", "--merchant", merchantid, "--email", "Ops@Example.com", "--name", "Ops", "--password", "correct horse battery", "--role", "developer", "--json");
    expect(created.code).toBe(0);
    expect(JSON.parse(created.stdout)).toMatchObject({ email: "ops@example.com", role: "developer", merchantid });
    const user = await db().user.findUniqueOrThrow({ where: { email: "ops@example.com" } });
    expect(user.passwordHash).toMatch(/^\$argon2id\$/);
    expect(await verifyPassword(user.passwordHash, "correct horse battery")).toBe(true);
    const short = await cli("user", "create", "--merchant", merchantid, "--email", "b@example.com", "--name", "B", "--password", "short");
    expect(short.code).toBe(2);
    expect(short.stderr).toContain("password: must be at least 10 characters");
    const duplicate = await cli("user", "create", "--merchant", merchantid, "--email", "ops@example.com", "--name", "Ops", "--password", "another long one");
    expect(duplicate.code).toBe(1);
    expect(duplicate.stderr).toContain("already exists");
  });

  it("explains its usage for an unknown command", async () => {
    const result = await cli("merchant", "explode");
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("unknown command: merchant explode");
    expect(result.stderr).toContain("usage: npm run cli");
  });
});
