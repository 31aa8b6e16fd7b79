// Back-office accounts against a real database: changing one's own password, an owner's reset of a
// member's password, sign-ins and secret reveals in the audit log, and the audit log's filters.
import { describe, expect, it } from "vitest";
import { ForbiddenError, NotFoundError, type Actor } from "@/lib/auth/actor";
import { IdentityNotConfirmedError } from "@/lib/auth/confirm-identity";
import { UserFacingError } from "@/lib/backoffice/action-result";
import { changePassword } from "@/lib/backoffice/actions/change-password";
import { resetTeamMemberPassword } from "@/lib/backoffice/actions/reset-team-member-password";
import { revealSigningSecret } from "@/lib/backoffice/actions/reveal-signing-secret";
import { listAuditEntries, parseAuditFilters } from "@/lib/backoffice/queries/list-audit-entries";
import { db } from "@/lib/db";
import type { UserRole } from "@/lib/generated/prisma/enums";
import { createUser } from "@/lib/users/create-user";
import { createTestMerchant, signingSecretOf } from "@/tests/helpers/merchant-factories";
import { useTestDatabase } from "@/tests/helpers/test-database";
import { eventually } from "@/tests/helpers/eventually";
import { signInOutcome } from "@/tests/helpers/sign-in";

useTestDatabase();

const PASSWORD = "long enough password";

async function actorFor(merchantId: string, role: UserRole, email = `${role.toLowerCase()}-${merchantId}@example.com`): Promise<Actor & { email: string }> {
  const user = await createUser({ merchantId, email, name: role, password: PASSWORD, role });
  return { userId: user.id, merchantId, mode: "test" as const, role, email };
}

const signInCode = (email: string, password: string, ipAddress: string | null = "192.0.2.10") => signInOutcome({ email, password, ipAddress });

const sessionVersion = async (userId: string) => (await db().user.findUniqueOrThrow({ where: { id: userId }, select: { sessionVersion: true } })).sessionVersion;

describe("password change", () => {
  it("asks for the current password, keeps to the password rule, ends other sessions and is audited", async () => {
    const { merchantId } = await createTestMerchant();
    const owner = await actorFor(merchantId, "OWNER");
    const before = await sessionVersion(owner.userId);

    await expect(changePassword({ actor: owner, input: { currentPassword: "not my password", newPassword: "a new password 1", confirmPassword: "a new password 1" } })).rejects.toBeInstanceOf(IdentityNotConfirmedError);
    await expect(changePassword({ actor: owner, input: { currentPassword: PASSWORD, newPassword: "short", confirmPassword: "short" } })).rejects.toThrow(/at least 12 characters/);
    await expect(changePassword({ actor: owner, input: { currentPassword: PASSWORD, newPassword: "a new password 1", confirmPassword: "a new password 2" } })).rejects.toThrow(/not the same/);
    await expect(changePassword({ actor: owner, input: { currentPassword: PASSWORD, newPassword: PASSWORD, confirmPassword: PASSWORD } })).rejects.toThrow(/other than your current one/);
    expect(await sessionVersion(owner.userId)).toBe(before);

    const version = await changePassword({ actor: owner, input: { currentPassword: PASSWORD, newPassword: "a new password 1", confirmPassword: "a new password 1" }, ipAddress: "192.0.2.7" });
    expect(version).toBe(before + 1);
    expect(await sessionVersion(owner.userId)).toBe(before + 1);
    expect(await signInCode(owner.email, PASSWORD)).toBe("INVALID_CREDENTIALS");
    expect(await signInCode(owner.email, "a new password 1")).toBe("OK");
    const stored = await db().user.findUniqueOrThrow({ where: { id: owner.userId }, select: { passwordHash: true } });
    expect(stored.passwordHash).toMatch(/^\$argon2id\$/);
    const audit = await db().auditEntry.findMany({ where: { merchantId, action: "user.password_changed" } });
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({ userId: owner.userId, target: owner.userId, details: { ip: "192.0.2.7" } });
    expect(JSON.stringify(audit[0])).not.toContain("a new password 1");
  });
});

describe("owner's reset of a member's password", () => {
  it("is for owners only, confirmed with the owner's password, within the merchant, never for oneself", async () => {
    const { merchantId } = await createTestMerchant();
    const other = await createTestMerchant();
    const owner = await actorFor(merchantId, "OWNER");
    const developer = await actorFor(merchantId, "DEVELOPER");
    const stranger = await actorFor(other.merchantId, "VIEWER");

    await expect(resetTeamMemberPassword({ actor: developer, input: { userId: owner.userId, currentPassword: PASSWORD } })).rejects.toBeInstanceOf(ForbiddenError);
    await expect(resetTeamMemberPassword({ actor: owner, input: { userId: developer.userId, currentPassword: "wrong password!" } })).rejects.toBeInstanceOf(IdentityNotConfirmedError);
    await expect(resetTeamMemberPassword({ actor: owner, input: { userId: owner.userId, currentPassword: PASSWORD } })).rejects.toBeInstanceOf(UserFacingError);
    await expect(resetTeamMemberPassword({ actor: owner, input: { userId: stranger.userId, currentPassword: PASSWORD } })).rejects.toBeInstanceOf(NotFoundError);
    expect(await signInCode(stranger.email, PASSWORD)).toBe("OK");
    expect(await signInCode(developer.email, PASSWORD)).toBe("OK");

    const before = await sessionVersion(developer.userId);
    const { email, temporaryPassword } = await resetTeamMemberPassword({ actor: owner, input: { userId: developer.userId, currentPassword: PASSWORD } });
    expect(email).toBe(developer.email);
    expect(temporaryPassword).toMatch(/^[A-Za-z2-9]{5}(-[A-Za-z2-9]{5}){3}$/);
    expect(await sessionVersion(developer.userId)).toBe(before + 1);
    expect(await signInCode(developer.email, PASSWORD)).toBe("INVALID_CREDENTIALS");
    expect(await signInCode(developer.email, temporaryPassword)).toBe("OK");
    const audit = await db().auditEntry.findMany({ where: { merchantId, action: "team.password_reset" } });
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({ userId: owner.userId, target: developer.userId, details: { email: developer.email } });
    expect(JSON.stringify(audit[0])).not.toContain(temporaryPassword);
  });
});

describe("audit of sign-ins and secret reveals", () => {
  it("records a sign-in and a failed one with the client address; an unknown email logs nothing for any merchant", async () => {
    const { merchantId } = await createTestMerchant();
    const owner = await actorFor(merchantId, "OWNER");
    const entriesBefore = await db().auditEntry.count();
    expect(await signInCode("nobody-here@example.com", PASSWORD)).toBe("INVALID_CREDENTIALS");
    expect(await signInCode(owner.email, "wrong password", "198.51.100.4")).toBe("INVALID_CREDENTIALS");
    expect(await signInCode(owner.email, PASSWORD, "198.51.100.5")).toBe("OK");
    // A failed sign-in's row is written after the answer (so timing tells nothing): wait for it.
    const readRows = () => db().auditEntry.findMany({ where: { merchantId, action: { startsWith: "user.sign" } }, orderBy: { createdAt: "asc" } });
    let rows = await readRows();
    await eventually(async () => (rows = await readRows()).length >= 2, { timeoutMs: 5_000, onTimeout: "return" });
    expect(rows.map((row) => [row.action, row.userId, row.details])).toEqual(
      expect.arrayContaining([
        ["user.sign_in_failed", owner.userId, { email: owner.email, ip: "198.51.100.4", reason: "INVALID_CREDENTIALS" }],
        ["user.signed_in", owner.userId, { email: owner.email, ip: "198.51.100.5" }],
      ]),
    );
    expect(rows).toHaveLength(2);
    expect(await db().auditEntry.count()).toBe(entriesBefore + 2);
  });

  it("reveals the signing secret to owners only, after their password, each time audited", async () => {
    const { merchantId } = await createTestMerchant();
    const owner = await actorFor(merchantId, "OWNER");
    const viewer = await actorFor(merchantId, "VIEWER");
    await expect(revealSigningSecret({ actor: viewer, input: { currentPassword: PASSWORD } })).rejects.toBeInstanceOf(ForbiddenError);
    const { secret } = await revealSigningSecret({ actor: owner, input: { currentPassword: PASSWORD }, ipAddress: "203.0.113.9" });
    expect(secret).toBe(await signingSecretOf(merchantId));
    const audit = await db().auditEntry.findMany({ where: { merchantId, action: "secret.revealed" } });
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({ userId: owner.userId, details: { secret: "notification signing secret (test mode)", mode: "test", ip: "203.0.113.9" } });
    expect(JSON.stringify(audit[0])).not.toContain(secret);
  });
});

describe("audit log filters", () => {
  it("validates the query string and filters by action, user and UTC day range", async () => {
    const { merchantId } = await createTestMerchant();
    const owner = await actorFor(merchantId, "OWNER");
    const developer = await actorFor(merchantId, "DEVELOPER");
    const at = (iso: string) => new Date(iso);
    await db().auditEntry.createMany({
      data: [
        { id: "a1", merchantId, userId: owner.userId, action: "api_key.created", createdAt: at("2026-01-10T23:59:59Z") },
        { id: "a2", merchantId, userId: developer.userId, action: "api_key.created", createdAt: at("2026-01-11T00:00:00Z") },
        { id: "a3", merchantId, userId: developer.userId, action: "secret.revealed", createdAt: at("2026-01-12T12:00:00Z") },
        { id: "a4", merchantId, userId: null, action: "operator.password_reset", createdAt: at("2026-01-13T08:00:00Z") },
      ],
    });
    const ids = async (params: Record<string, string>) => {
      const { filters, errors } = parseAuditFilters(params);
      expect(errors).toEqual({});
      // Only the rows seeded here (creating the merchant and users writes rows of its own).
      return (await listAuditEntries({ merchantId, role: "OWNER", filters })).rows.map((row) => row.id).filter((id) => /^[ab]\d$/.test(id));
    };
    expect(await ids({ action: "api_key.created" })).toEqual(["a2", "a1"]);
    expect(await ids({ user: developer.userId })).toEqual(["a3", "a2"]);
    expect(await ids({ user: "system" })).toEqual(["a4"]);
    expect(await ids({ from: "2026-01-11", to: "2026-01-12" })).toEqual(["a3", "a2"]);
    expect(await ids({ to: "2026-01-10" })).toEqual(["a1"]);
    expect(await ids({ action: "api_key.created", user: developer.userId, from: "2026-01-11" })).toEqual(["a2"]);
    expect(await ids({ action: "", user: "", from: "", to: "" })).toEqual(["a4", "a3", "a2", "a1"]);

    // Invalid values are reported, dropped, and the valid ones still apply.
    const bad = parseAuditFilters({ action: "drop table", from: "2026-02-30", to: "2026-01-12", user: "x' OR 1=1" });
    expect(Object.keys(bad.errors).sort()).toEqual(["action", "from", "user"]);
    expect(bad.filters).toEqual({ to: "2026-01-12" });
    const reversed = parseAuditFilters({ from: "2026-01-12", to: "2026-01-11" });
    expect(reversed.errors.to).toMatch(/before the start/);
    // Another merchant's user id filters to nothing, never to their rows.
    const other = await createTestMerchant();
    const stranger = await actorFor(other.merchantId, "OWNER");
    await db().auditEntry.create({ data: { id: "b1", merchantId: other.merchantId, userId: stranger.userId, action: "api_key.created" } });
    expect(await ids({ user: stranger.userId })).toEqual([]);
    expect((await listAuditEntries({ merchantId, role: "OWNER", filters: { user: stranger.userId } })).rows).toEqual([]);
  });
});
