// Security review 3, L8: `npm run cli -- user create --password <password>` put the password on the
// command line (visible in ps and shell history), and creating a user from the CLI left no audit row.
// The CLI as an operator runs it, against a real database: --password is refused, the password is
// read from standard input (or a prompt in a terminal), and the creation is audited as the operator's.
import { describe, expect, it } from "vitest";
import { verifyPassword } from "@/lib/auth/password";
import { db } from "@/lib/db";
import { createTestMerchant } from "@/tests/helpers/merchant-factories";
import { operatorCli } from "@/tests/helpers/operator-cli";
import { useTestDatabase } from "@/tests/helpers/test-database";

const database = useTestDatabase();
const cli = operatorCli(() => database.current().url);

describe("L8: operator CLI passwords", () => {
  it("L8: --password on the command line is refused and creates no user", async () => {
    const { merchantId } = await createTestMerchant();
    const result = await cli("user", "create", "--merchant", merchantId, "--email", "argv@example.com", "--name", "Argv", "--password", "violet tractor umbrella");
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("--password is not accepted");
    expect(await db().user.count({ where: { email: "argv@example.com" } })).toBe(0);
  });

  it("L8: the password comes from standard input, and the creation is in the audit log as the operator's, without the password", async () => {
    const { merchantId } = await createTestMerchant();
    const result = await cli.withInput("violet tractor umbrella\n", "user", "create", "--merchant", merchantId, "--email", "stdin@example.com", "--name", "Stdin", "--role", "viewer", "--json");
    expect(result.code).toBe(0);
    const user = await db().user.findUniqueOrThrow({ where: { email: "stdin@example.com" } });
    expect(await verifyPassword(user.passwordHash, "violet tractor umbrella")).toBe(true);
    const audit = await db().auditEntry.findFirstOrThrow({ where: { merchantId, action: "operator.user_created", target: user.id } });
    expect(audit).toMatchObject({ userId: null, actorRole: "operator", details: { email: "stdin@example.com", role: "VIEWER" } });
    expect(JSON.stringify(audit)).not.toContain("violet");
  });
});
