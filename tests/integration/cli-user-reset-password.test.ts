// `npm run cli -- user reset-password <email>`, run as an operator runs it: the printed temporary
// password signs in, the old one no longer does, open sessions end, and the merchant's audit log
// says the operator did it.
import { describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { createUser } from "@/lib/users/create-user";
import { createTestMerchant } from "../helpers/merchant-factories";
import { operatorCli } from "../helpers/operator-cli";
import { useTestDatabase } from "../helpers/test-database";
import { signInOutcome } from "@/tests/helpers/sign-in";

const database = useTestDatabase();
const cli = operatorCli(() => database.current().url, "cps-cli-reset-");

const signInCode = (email: string, password: string) => signInOutcome({ email, password, ipAddress: "10.9.8.7" });

describe("npm run cli -- user reset-password", () => {
  it("prints a temporary password that signs in, retires the old one, ends sessions and is audited as the operator", async () => {
    const { merchantId } = await createTestMerchant();
    const user = await createUser({ merchantId, email: "locked.out@example.com", name: "Locked Out", password: "old password 123", role: "OWNER" });
    const before = await db().user.findUniqueOrThrow({ where: { id: user.id }, select: { sessionVersion: true } });

    const text = await cli("user", "reset-password", "Locked.Out@example.com");
    expect(text.code, text.stderr).toBe(0);
    const printed = /Temporary password for locked\.out@example\.com: (\S+)/.exec(text.stdout)?.[1];
    expect(printed).toBeDefined();
    expect(await signInCode("locked.out@example.com", printed!)).toBe("OK");
    expect(await signInCode("locked.out@example.com", "old password 123")).toBe("INVALID_CREDENTIALS");

    const after = await db().user.findUniqueOrThrow({ where: { id: user.id }, select: { sessionVersion: true } });
    expect(after.sessionVersion).toBe(before.sessionVersion + 1);

    const entries = await db().auditEntry.findMany({ where: { merchantId, action: "operator.password_reset" } });
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({ userId: null, target: user.id, details: { email: "locked.out@example.com" } });
    // The password itself is never written anywhere but as its hash.
    expect(JSON.stringify(entries[0]!.details)).not.toContain(printed!);

    // --json: a new one each time, for scripts.
    const json = await cli("user", "reset-password", "locked.out@example.com", "--json");
    expect(json.code, json.stderr).toBe(0);
    const output = JSON.parse(json.stdout) as { email: string; temporarypassword: string; merchantid: string };
    expect(output).toMatchObject({ email: "locked.out@example.com", merchantid: merchantId });
    expect(output.temporarypassword).not.toBe(printed);
    expect(await signInCode("locked.out@example.com", output.temporarypassword)).toBe("OK");
    expect(await signInCode("locked.out@example.com", printed!)).toBe("INVALID_CREDENTIALS");
  });

  it("refuses an unknown email and a missing one without changing anything", async () => {
    const unknown = await cli("user", "reset-password", "nobody@example.com");
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain("no back-office user with email nobody@example.com");
    const missing = await cli("user", "reset-password");
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain("user reset-password needs <email>");
  });
});
