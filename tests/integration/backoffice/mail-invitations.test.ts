// Team invitations and "forgot password" by mail (issue 28), through a real SMTP server on
// 127.0.0.1: single-use, short-lived links, the same answer for unknown addresses, a limit per
// address, sessions ended by a reset, every step audited; locally without SMTP_URL the mail is kept.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Actor } from "@/lib/auth/actor";
import { authenticateUser } from "@/lib/auth/authenticate-user";
import { acceptInvitation } from "@/lib/backoffice/actions/accept-invitation";
import { inviteTeamMember } from "@/lib/backoffice/actions/invite-team-member";
import { requestPasswordReset } from "@/lib/backoffice/actions/request-password-reset";
import { resetPasswordWithToken } from "@/lib/backoffice/actions/reset-password-with-token";
import { db } from "@/lib/db";
import { resetConfig } from "@/lib/env";
import { sendMail } from "@/lib/mail/send-mail";
import { createUser } from "@/lib/users/create-user";
import { createTestMerchant } from "@/tests/helpers/merchant-factories";
import { startSmtpReceiver, type SmtpReceiver } from "@/tests/helpers/smtp-receiver";
import { useTestDatabase } from "@/tests/helpers/test-database";

useTestDatabase();

const PASSWORD = "long enough password";
let smtp: SmtpReceiver;
let owner: Actor;
let viewer: Actor;

beforeAll(async () => {
  smtp = await startSmtpReceiver();
  process.env.SMTP_URL = smtp.url;
  resetConfig();
  const merchant = await createTestMerchant();
  const make = async (role: "OWNER" | "VIEWER") => {
    const user = await createUser({ merchantId: merchant.merchantId, email: `${role.toLowerCase()}-mail@example.com`, name: role, password: PASSWORD, role });
    return { userId: user.id, merchantId: merchant.merchantId, mode: "test" as const, role };
  };
  owner = await make("OWNER");
  viewer = await make("VIEWER");
});
afterAll(async () => {
  delete process.env.SMTP_URL;
  resetConfig();
  await smtp?.close();
});

const tokenOf = (link: string | undefined) => link!.split("/").pop()!;

describe("team invitations", () => {
  it("mail a single-use link; the person chooses name and password and signs in with the invited role", async () => {
    await inviteTeamMember({ actor: owner, input: { email: "New.Person@example.com", role: "DEVELOPER", currentPassword: PASSWORD } });
    const link = smtp.linkTo("new.person@example.com");
    expect(link).toMatch(/\/backoffice\/invitation\/[A-Za-z0-9_-]{43}$/);
    // Only the token's HMAC is stored.
    expect(JSON.stringify(await db().userToken.findMany())).not.toContain(tokenOf(link));
    const user = await acceptInvitation({ input: { token: tokenOf(link), name: "New Person", password: "another long password" } });
    expect(user).toMatchObject({ email: "new.person@example.com", role: "DEVELOPER", merchantId: owner.merchantId });
    await expect(authenticateUser({ email: "new.person@example.com", password: "another long password", ipAddress: null })).resolves.toBeTruthy();
    await expect(acceptInvitation({ input: { token: tokenOf(link), name: "Again", password: "yet another long password" } })).rejects.toThrow(/expired or was used/);
    const actions = (await db().auditEntry.findMany({ where: { merchantId: owner.merchantId } })).map((entry) => entry.action);
    expect(actions).toEqual(expect.arrayContaining(["team.invitation_sent", "team.invitation_accepted"]));
  });

  it("expire after 72 hours", async () => {
    await inviteTeamMember({ actor: owner, input: { email: "late@example.com", role: "VIEWER", currentPassword: PASSWORD } });
    const token = tokenOf(smtp.linkTo("late@example.com"));
    const later = new Date(Date.now() + 73 * 60 * 60_000);
    await expect(acceptInvitation({ input: { token, name: "Late", password: "another long password" }, now: later })).rejects.toThrow(/expired/);
    expect(await db().user.count({ where: { email: "late@example.com" } })).toBe(0);
  });

  it("are for owners, after their password, to an address without an account; a refusal sends nothing", async () => {
    const before = smtp.mails.length;
    await expect(inviteTeamMember({ actor: viewer, input: { email: "x@example.com", role: "VIEWER", currentPassword: PASSWORD } })).rejects.toThrow();
    await expect(inviteTeamMember({ actor: owner, input: { email: "x@example.com", role: "VIEWER", currentPassword: "wrong password!!" } })).rejects.toThrow();
    await expect(inviteTeamMember({ actor: owner, input: { email: "viewer-mail@example.com", role: "VIEWER", currentPassword: PASSWORD } })).rejects.toThrow(/exists already/);
    await expect(inviteTeamMember({ actor: owner, input: { email: "not an address", role: "VIEWER", currentPassword: PASSWORD } })).rejects.toThrow(/valid email/);
    expect(smtp.mails.length).toBe(before);
  });
});

describe("forgot password", () => {
  it("answers an unknown address exactly as a known one, and mails nothing to it", async () => {
    const before = smtp.mails.length;
    await expect(requestPasswordReset({ input: { email: "nobody@example.com" } })).resolves.toBeUndefined();
    expect(smtp.mails.length).toBe(before);
  });

  it("mails a 30-minute single-use link; the new password works, the old one and every session end", async () => {
    const { sessionVersion } = await db().user.findUniqueOrThrow({ where: { id: viewer.userId } });
    await requestPasswordReset({ input: { email: "VIEWER-mail@example.com" } });
    const token = tokenOf(smtp.linkTo("viewer-mail@example.com"));
    await expect(
      resetPasswordWithToken({ input: { token, password: "a brand new password" }, now: new Date(Date.now() + 31 * 60_000) }),
    ).rejects.toThrow(/expired/);
    await resetPasswordWithToken({ input: { token, password: "a brand new password" } });
    await expect(authenticateUser({ email: "viewer-mail@example.com", password: "a brand new password", ipAddress: null })).resolves.toBeTruthy();
    await expect(authenticateUser({ email: "viewer-mail@example.com", password: PASSWORD, ipAddress: null })).rejects.toThrow();
    expect((await db().user.findUniqueOrThrow({ where: { id: viewer.userId } })).sessionVersion).toBe(sessionVersion + 1);
    await expect(resetPasswordWithToken({ input: { token, password: "one more long password" } })).rejects.toThrow(/used already/);
    const actions = (await db().auditEntry.findMany({ where: { userId: viewer.userId } })).map((entry) => entry.action);
    expect(actions).toEqual(expect.arrayContaining(["user.password_reset_requested", "user.password_reset_by_link"]));
  });

  it("refuses a reset link of a user removed from the team since", async () => {
    const removed = await createUser({ merchantId: owner.merchantId, email: "removed@example.com", name: "R", password: PASSWORD, role: "VIEWER" });
    await requestPasswordReset({ input: { email: "removed@example.com" } });
    const token = tokenOf(smtp.linkTo("removed@example.com"));
    await db().user.delete({ where: { id: removed.id } });
    await expect(resetPasswordWithToken({ input: { token, password: "a brand new password" } })).rejects.toThrow(/expired or was used/);
  });

  it("sends at most three links per address an hour", async () => {
    const before = smtp.mails.filter((mail) => mail.to.includes("owner-mail@example.com")).length;
    for (let i = 0; i < 5; i++) await requestPasswordReset({ input: { email: "owner-mail@example.com" } });
    expect(smtp.mails.filter((mail) => mail.to.includes("owner-mail@example.com")).length - before).toBe(3);
  });
});

describe("without SMTP_URL, locally", () => {
  it("keeps the mail for the local outbox instead of sending it", async () => {
    delete process.env.SMTP_URL;
    resetConfig();
    try {
      const before = smtp.mails.length;
      expect(await sendMail({ to: "a@example.com", subject: "kept", text: "hello" })).toBe("kept");
      expect(await db().localMail.findFirst({ where: { subject: "kept" } })).toMatchObject({ to: "a@example.com", text: "hello" });
      expect(smtp.mails.length).toBe(before);
    } finally {
      process.env.SMTP_URL = smtp.url;
      resetConfig();
    }
  });
});
