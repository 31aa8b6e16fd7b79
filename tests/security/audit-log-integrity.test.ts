// Security review 3, M2: removing a user turned their whole audit history into "system" rows (the
// foreign key was ON DELETE SET NULL, and the page showed `user?.email ?? "system"`), and audit rows
// could be changed or deleted like any other. Against a real database through the use cases the
// back office calls: the actor's identity (id, email, name, role at the time) stays on every row
// whatever happens to the user later; the last owner cannot remove themself; the application cannot
// change or delete an audit row (a trigger refuses it); and every audit event is also a log line.
import { describe, expect, it } from "vitest";
import type { Actor } from "@/lib/auth/actor";
import { UserFacingError } from "@/lib/backoffice/action-result";
import { changeTeamMember } from "@/lib/backoffice/actions/change-team-member";
import { createKey } from "@/lib/backoffice/actions/create-key";
import { listAuditEntries } from "@/lib/backoffice/queries/list-audit-entries";
import { db } from "@/lib/db";
import type { UserRole } from "@/lib/generated/prisma/enums";
import { captureLogs } from "@/lib/observability/logger";
import { createUser } from "@/lib/users/create-user";
import { createTestMerchant } from "@/tests/helpers/merchant-factories";
import { useTestDatabase } from "@/tests/helpers/test-database";

useTestDatabase();

const PASSWORD = "a long enough password";
const STEP_UP = { currentPassword: PASSWORD };

async function member(merchantId: string, role: UserRole, name: string): Promise<Actor & { email: string; name: string }> {
  const email = `${name.toLowerCase().replace(/\s+/g, ".")}-${merchantId}@example.com`;
  const user = await createUser({ merchantId, email, name, password: PASSWORD, role });
  return { userId: user.id, merchantId, mode: "test" as const, role, email, name };
}

describe("M2: the audit log keeps who did what", () => {
  it("M2: a removed owner's key creation still names them (id, email, name, role at the time), not 'system'", async () => {
    const { merchantId } = await createTestMerchant();
    const owner = await member(merchantId, "OWNER", "Owner A");
    const insider = await member(merchantId, "OWNER", "Insider");
    await createKey({ actor: insider, input: { name: "insider key", scopes: ["payments"], ...STEP_UP } });
    await changeTeamMember({ actor: owner, input: { change: "remove", userId: insider.userId, ...STEP_UP } });

    const { rows } = await listAuditEntries({ merchantId, role: "OWNER", filters: { action: "api_key.created" } });
    const created = rows.find((row) => (row.details as { name?: string }).name === "insider key");
    expect(created).toMatchObject({ actorId: insider.userId, actorEmail: insider.email, actorName: "Insider", actorRole: "OWNER" });
    // The removal itself names the remover, and the removed user's rows stay theirs.
    const removal = (await listAuditEntries({ merchantId, role: "OWNER", filters: { action: "team.user_removed" } })).rows[0];
    expect(removal).toMatchObject({ actorId: owner.userId, actorEmail: owner.email, actorRole: "OWNER" });
  });

  it("M2: a later role change does not rewrite the role an entry was made with", async () => {
    const { merchantId } = await createTestMerchant();
    const owner = await member(merchantId, "OWNER", "Owner B");
    const developer = await member(merchantId, "DEVELOPER", "Dev B");
    await createKey({ actor: developer, input: { name: "dev key", scopes: ["payments"], ...STEP_UP } });
    await changeTeamMember({ actor: owner, input: { change: "role", userId: developer.userId, role: "VIEWER", ...STEP_UP } });
    const { rows } = await listAuditEntries({ merchantId, role: "OWNER", filters: { action: "api_key.created" } });
    expect(rows.find((row) => (row.details as { name?: string }).name === "dev key")).toMatchObject({
      actorEmail: developer.email,
      actorRole: "DEVELOPER",
    });
  });

  it("M2: the last owner cannot remove themself or step down", async () => {
    const { merchantId } = await createTestMerchant();
    const owner = await member(merchantId, "OWNER", "Only Owner");
    await expect(changeTeamMember({ actor: owner, input: { change: "remove", userId: owner.userId, ...STEP_UP } })).rejects.toBeInstanceOf(
      UserFacingError,
    );
    await expect(
      changeTeamMember({ actor: owner, input: { change: "role", userId: owner.userId, role: "DEVELOPER", ...STEP_UP } }),
    ).rejects.toBeInstanceOf(UserFacingError);
    expect(await db().user.count({ where: { id: owner.userId, role: "OWNER" } })).toBe(1);
  });

  it("M2: audit rows cannot be changed or deleted through the application (ORM or SQL)", async () => {
    const { merchantId } = await createTestMerchant();
    const owner = await member(merchantId, "OWNER", "Owner C");
    await createKey({ actor: owner, input: { name: "a key", scopes: ["payments"], ...STEP_UP } });
    const entry = await db().auditEntry.findFirstOrThrow({ where: { merchantId, action: "api_key.created" } });
    await expect(db().auditEntry.update({ where: { id: entry.id }, data: { action: "nothing.happened" } })).rejects.toThrow(/audit/i);
    await expect(db().auditEntry.deleteMany({ where: { merchantId } })).rejects.toThrow(/audit/i);
    await expect(db().$executeRawUnsafe(`UPDATE "AuditEntry" SET "details" = '{}' WHERE "id" = $1`, entry.id)).rejects.toThrow(/audit/i);
    await expect(db().$executeRawUnsafe(`DELETE FROM "AuditEntry" WHERE "id" = $1`, entry.id)).rejects.toThrow(/audit/i);
    await expect(db().$executeRawUnsafe(`TRUNCATE "AuditEntry"`)).rejects.toThrow(/audit/i);
    expect(await db().auditEntry.findUniqueOrThrow({ where: { id: entry.id } })).toEqual(entry);
  });

  it("M2: every audit event is also written to the structured log, with the actor", async () => {
    const { merchantId } = await createTestMerchant();
    const owner = await member(merchantId, "OWNER", "Owner D");
    const logs = captureLogs({ level: "info" });
    try {
      await createKey({ actor: owner, input: { name: "logged key", scopes: ["payments", "read"], ...STEP_UP } });
    } finally {
      logs.stop();
    }
    const line = logs.entries().find((entry) => entry.event === "audit" && entry.action === "api_key.created");
    expect(line).toMatchObject({ component: "audit", merchantId, actorId: owner.userId, actorEmail: owner.email, actorRole: "OWNER" });
    expect(line?.details).toMatchObject({ name: "logged key" });
  });
});
