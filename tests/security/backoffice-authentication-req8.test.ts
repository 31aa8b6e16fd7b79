// Security review 3, M8: back-office authentication below PCI DSS v4 requirement 8 (10-character
// passwords without a list of common ones, MFA optional, sessions sliding for 8 hours with no idle
// limit, reset passwords that never had to be changed, an owner who could reset another owner and
// sign in as them). Against a real database through the code the sign-in form, the session check
// and the back-office actions run.
import { generate } from "otplib";
import { afterEach, describe, expect, it } from "vitest";
import type { Actor } from "@/lib/auth/actor";
import { SESSION_IDLE_TIMEOUT_MS, SESSION_MAX_AGE_MS, startBackofficeSession, touchBackofficeSession } from "@/lib/auth/backoffice-session";
import { confirmTotpEnrolment } from "@/lib/auth/confirm-totp-enrolment";
import { disableTotp, TotpRequiredError } from "@/lib/auth/disable-totp";
import { needsAccountSetup } from "@/lib/auth/session";
import { startTotpEnrolment } from "@/lib/auth/start-totp-enrolment";
import { UserFacingError } from "@/lib/backoffice/action-result";
import { changePassword } from "@/lib/backoffice/actions/change-password";
import { resetTeamMemberPassword } from "@/lib/backoffice/actions/reset-team-member-password";
import { db } from "@/lib/db";
import { ConfigError, parseEnv, resetConfig } from "@/lib/env";
import type { UserRole } from "@/lib/generated/prisma/enums";
import { createUser } from "@/lib/users/create-user";
import { createTestMerchant } from "@/tests/helpers/merchant-factories";
import { useTestDatabase } from "@/tests/helpers/test-database";
import { signInOutcome } from "@/tests/helpers/sign-in";

useTestDatabase();

const PASSWORD = "a long enough password";
let count = 0;

async function member(merchantId: string, role: UserRole): Promise<Actor & { email: string }> {
  const email = `req8-${++count}-${merchantId}@example.com`;
  const user = await createUser({ merchantId, email, name: role, password: PASSWORD, role });
  return { userId: user.id, merchantId, mode: "test" as const, role, email };
}

const signInCode = (email: string, password: string, totp?: string) => signInOutcome({ email, password, totp, ipAddress: `192.0.2.${(count % 200) + 1}` });

/** A TOTP code for the user's pending or active secret, read back the way the app reads it. */
async function enrol(userId: string): Promise<{ secret: string; recoveryCodes: string[] }> {
  const { secret } = await startTotpEnrolment({ userId, input: { currentPassword: PASSWORD } });
  const enabled = await confirmTotpEnrolment({ userId, code: await generate({ secret }) });
  return { secret, recoveryCodes: enabled!.recoveryCodes };
}

afterEach(() => {
  delete process.env.BACKOFFICE_MFA_REQUIRED;
  resetConfig();
});

describe("M8: passwords (8.3.6)", () => {
  it("M8: a password needs 12 characters and is refused when it is a common one", async () => {
    const { merchantId } = await createTestMerchant();
    const create = (password: string) => createUser({ merchantId, email: `pw-${++count}@example.com`, name: "x", password, role: "VIEWER" });
    await expect(create("elevenchars")).rejects.toThrow(/12 characters/);
    for (const common of ["password1234", "Password123!", "qwertyuiop123", "iloveyou1234", "aaaaaaaaaaaa"]) {
      await expect(create(common), common).rejects.toThrow(/too common/);
    }
    await expect(create("violet tractor umbrella")).resolves.toMatchObject({ role: "VIEWER" });
  });
});

describe("M8: sessions end after 15 idle minutes and 8 hours (8.2.8)", () => {
  it("M8: a session used within 15 minutes lives on; one idle for longer is over, and stays over", async () => {
    const { merchantId } = await createTestMerchant();
    const user = await member(merchantId, "OWNER");
    const start = new Date();
    const id = await startBackofficeSession({ userId: user.userId, now: start });
    const at = (ms: number) => new Date(start.getTime() + ms);
    expect(await touchBackofficeSession({ id, userId: user.userId, now: at(14 * 60_000) })).toBe(true);
    expect(await touchBackofficeSession({ id, userId: user.userId, now: at(28 * 60_000) })).toBe(true);
    expect(await touchBackofficeSession({ id, userId: user.userId, now: at(28 * 60_000 + SESSION_IDLE_TIMEOUT_MS + 1_000) })).toBe(false);
    expect(await touchBackofficeSession({ id, userId: user.userId, now: at(29 * 60_000) })).toBe(false);
    // Another user's session id is no key to this user's account.
    const other = await startBackofficeSession({ userId: user.userId, now: start });
    expect(await touchBackofficeSession({ id: other, userId: "someone-else", now: start })).toBe(false);
  });

  it("M8: a session kept busy still ends 8 hours after sign-in", async () => {
    const { merchantId } = await createTestMerchant();
    const user = await member(merchantId, "DEVELOPER");
    const start = new Date();
    const id = await startBackofficeSession({ userId: user.userId, now: start });
    let alive = true;
    for (let minutes = 10; minutes * 60_000 <= SESSION_MAX_AGE_MS + 10 * 60_000 && alive; minutes += 10) {
      alive = await touchBackofficeSession({ id, userId: user.userId, now: new Date(start.getTime() + minutes * 60_000) });
      if (minutes * 60_000 <= SESSION_MAX_AGE_MS) expect(alive).toBe(true);
    }
    expect(alive).toBe(false);
  });
});

describe("M8: temporary passwords (8.3.5) and resets between owners", () => {
  it("M8: a reset password must be changed before anything else and stops working after 24 hours", async () => {
    const { merchantId } = await createTestMerchant();
    const owner = await member(merchantId, "OWNER");
    const developer = await member(merchantId, "DEVELOPER");
    const { temporaryPassword } = await resetTeamMemberPassword({ actor: owner, input: { userId: developer.userId, currentPassword: PASSWORD } });
    const after = await db().user.findUniqueOrThrow({ where: { id: developer.userId }, select: { mustChangePassword: true, temporaryPasswordExpiresAt: true } });
    expect(after.mustChangePassword).toBe(true);
    expect(needsAccountSetup({ mustChangePassword: after.mustChangePassword, mfaEnrolmentRequired: false })).toBe(true);
    expect(after.temporaryPasswordExpiresAt!.getTime() - Date.now()).toBeGreaterThan(23 * 3_600_000);
    expect(await signInCode(developer.email, temporaryPassword)).toBe("OK");
    // Changing it lifts the requirement.
    await changePassword({ actor: developer, input: { currentPassword: temporaryPassword, newPassword: "violet tractor umbrella", confirmPassword: "violet tractor umbrella" } });
    expect((await db().user.findUniqueOrThrow({ where: { id: developer.userId } })).mustChangePassword).toBe(false);

    // A temporary password not changed in time no longer signs in.
    const { temporaryPassword: second } = await resetTeamMemberPassword({ actor: owner, input: { userId: developer.userId, currentPassword: PASSWORD } });
    await db().user.update({ where: { id: developer.userId }, data: { temporaryPasswordExpiresAt: new Date(Date.now() - 1_000) } });
    expect(await signInCode(developer.email, second)).toBe("TEMPORARY_PASSWORD_EXPIRED");
  });

  it("M8: an owner cannot reset another owner who has no second factor (that is the CLI's); with one, the reset cannot be used alone", async () => {
    const { merchantId } = await createTestMerchant();
    const owner = await member(merchantId, "OWNER");
    const second = await member(merchantId, "OWNER");
    const hash = (await db().user.findUniqueOrThrow({ where: { id: second.userId } })).passwordHash;
    await expect(resetTeamMemberPassword({ actor: owner, input: { userId: second.userId, currentPassword: PASSWORD } })).rejects.toBeInstanceOf(UserFacingError);
    expect((await db().user.findUniqueOrThrow({ where: { id: second.userId } })).passwordHash).toBe(hash);
    await enrol(second.userId);
    const { temporaryPassword } = await resetTeamMemberPassword({ actor: owner, input: { userId: second.userId, currentPassword: PASSWORD } });
    expect(await signInCode(second.email, temporaryPassword)).toBe("TOTP_REQUIRED");
  });
});

describe("M8: MFA required (8.4.2), with recovery codes", () => {
  it("M8: with MFA required a user without a second factor must enrol first, and cannot turn it off afterwards", async () => {
    process.env.BACKOFFICE_MFA_REQUIRED = "1";
    resetConfig();
    const { merchantId } = await createTestMerchant();
    const viewer = await member(merchantId, "VIEWER");
    expect(needsAccountSetup({ mustChangePassword: false, mfaEnrolmentRequired: true })).toBe(true);
    const { secret } = await enrol(viewer.userId);
    await expect(disableTotp({ userId: viewer.userId, input: { currentPassword: PASSWORD, code: await generate({ secret }) } })).rejects.toBeInstanceOf(TotpRequiredError);
  });

  it("M8: enrolment gives ten recovery codes; each signs in once in place of the code", async () => {
    const { merchantId } = await createTestMerchant();
    const owner = await member(merchantId, "OWNER");
    const { recoveryCodes } = await enrol(owner.userId);
    expect(recoveryCodes).toHaveLength(10);
    expect(new Set(recoveryCodes).size).toBe(10);
    expect(await signInCode(owner.email, PASSWORD)).toBe("TOTP_REQUIRED");
    expect(await signInCode(owner.email, PASSWORD, recoveryCodes[0])).toBe("OK");
    expect(await signInCode(owner.email, PASSWORD, recoveryCodes[0])).toBe("INVALID_TOTP");
    expect(await signInCode(owner.email, PASSWORD, "abcde-fghjk")).toBe("INVALID_TOTP");
    const stored = await db().recoveryCode.findMany({ where: { userId: owner.userId } });
    expect(JSON.stringify(stored)).not.toContain(recoveryCodes[1]!);
  });

  it("M8: production always requires MFA; turning it off there is a configuration error", () => {
    const secrets = { SESSION_SECRET: "s".repeat(32), API_KEY_SECRET: "a".repeat(32), CARD_DATA_KEY: Buffer.alloc(32, 1).toString("base64") };
    expect(parseEnv({ NODE_ENV: "production", ...secrets }).backofficeMfaRequired).toBe(true);
    expect(() => parseEnv({ NODE_ENV: "production", BACKOFFICE_MFA_REQUIRED: "0", ...secrets })).toThrow(ConfigError);
    expect(parseEnv({ NODE_ENV: "production", CPS_LOCAL: "1", ...secrets }).backofficeMfaRequired).toBe(false);
  });
});
