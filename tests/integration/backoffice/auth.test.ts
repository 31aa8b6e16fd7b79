// Sign-in: password check, the TOTP second factor and the sign-in throttle, against a real database.
import { generate } from "otplib";
import { afterEach, describe, expect, it, vi } from "vitest";
import { useTestDatabase } from "@/tests/helpers/test-database";
import { createTestMerchant } from "@/tests/helpers/merchant-factories";
import { authenticateUser } from "@/lib/auth/authenticate-user";
import { startTotpEnrolment } from "@/lib/auth/start-totp-enrolment";
import { confirmTotpEnrolment, InvalidTotpCodeError } from "@/lib/auth/confirm-totp-enrolment";
import { disableTotp, TotpAttemptsExceededError } from "@/lib/auth/disable-totp";
import { MAX_FAILURES_PER_EMAIL } from "@/lib/auth/sign-in-rate-limit";
import { createUser } from "@/lib/users/create-user";
import { db } from "@/lib/db";
import { signInOutcome } from "@/tests/helpers/sign-in";

useTestDatabase();

const PASSWORD = "correct horse battery";

async function newUser(email: string) {
  const { merchantId } = await createTestMerchant();
  return createUser({ merchantId, email, name: "Test User", password: PASSWORD, role: "OWNER" });
}

afterEach(() => {
  vi.useRealTimers();
});

/**
 * Stops the clock (Date only) in the middle of the current 30-second step, so codes of the steps
 * either side stay valid for the whole test; returns a code generator for step `offset` from it.
 */
function freezeClockMidStep(secret: string) {
  const step = Math.floor(Date.now() / 30_000);
  vi.useFakeTimers({ toFake: ["Date"], now: step * 30_000 + 15_000 });
  return (offset = 0) => generate({ secret, epoch: (step + offset) * 30 });
}

const signInError = signInOutcome;

describe("authenticateUser", () => {
  it("signs in with the right password, in any letter case of the email, and records the attempt", async () => {
    const user = await newUser("alice@example.com");
    const result = await authenticateUser({ email: " Alice@Example.com ", password: PASSWORD, ipAddress: "10.0.0.1" });
    expect(result).toMatchObject({ id: user.id, merchantId: user.merchantId, email: "alice@example.com" });
    const attempts = await db().signInAttempt.findMany({ where: { email: "alice@example.com" } });
    expect(attempts).toHaveLength(1);
    expect(attempts[0]).toMatchObject({ succeeded: true, userId: user.id, ipAddress: "10.0.0.1" });
    expect((await db().user.findUniqueOrThrow({ where: { id: user.id } })).lastSignInAt).not.toBeNull();
  });

  it("refuses a wrong password and an unknown email with the same answer", async () => {
    await newUser("bob@example.com");
    expect(await signInError({ email: "bob@example.com", password: "wrong password", ipAddress: null })).toBe("INVALID_CREDENTIALS");
    expect(await signInError({ email: "nobody@example.com", password: PASSWORD, ipAddress: null })).toBe("INVALID_CREDENTIALS");
  });

  it(`locks an email out from an address after ${MAX_FAILURES_PER_EMAIL} failures there, even for the right password; not from another address (review 3, L3)`, async () => {
    await newUser("carol@example.com");
    for (let index = 0; index < MAX_FAILURES_PER_EMAIL; index++) {
      expect(await signInError({ email: "carol@example.com", password: `guess ${index}`, ipAddress: "10.0.0.2" })).toBe("INVALID_CREDENTIALS");
    }
    expect(await signInError({ email: "carol@example.com", password: PASSWORD, ipAddress: "10.0.0.2" })).toBe("RATE_LIMITED");
    expect(await signInError({ email: "carol@example.com", password: PASSWORD, ipAddress: "10.0.0.3" })).toBe("OK");
    // Failures older than the window no longer count.
    await db().signInAttempt.updateMany({ where: { email: "carol@example.com" }, data: { createdAt: new Date(Date.now() - 16 * 60_000) } });
    expect(await signInError({ email: "carol@example.com", password: PASSWORD, ipAddress: "10.0.0.2" })).toBe("OK");
  });

  it("locks an IP address out after many failures across accounts", async () => {
    for (let index = 0; index < 30; index++) {
      await db().signInAttempt.create({ data: { id: `ip-${index}`, email: `victim${index}@example.com`, ipAddress: "10.9.9.9", succeeded: false } });
    }
    await newUser("dave@example.com");
    expect(await signInError({ email: "dave@example.com", password: PASSWORD, ipAddress: "10.9.9.9" })).toBe("RATE_LIMITED");
    expect(await signInError({ email: "dave@example.com", password: PASSWORD, ipAddress: "10.9.9.8" })).toBe("OK");
  });

  it("reserves each attempt before checking the password: 15 parallel wrong passwords record at most 5 failures, then even the right one is refused", async () => {
    await newUser("race@example.com");
    const results = await Promise.all(Array.from({ length: 15 }, () => signInError({ email: "race@example.com", password: "wrong guess", ipAddress: null })));
    expect(results.filter((result) => result === "INVALID_CREDENTIALS").length).toBeLessThanOrEqual(MAX_FAILURES_PER_EMAIL);
    expect(results.every((result) => result === "INVALID_CREDENTIALS" || result === "RATE_LIMITED")).toBe(true);
    expect(await db().signInAttempt.count({ where: { email: "race@example.com", succeeded: false } })).toBeLessThanOrEqual(MAX_FAILURES_PER_EMAIL);
    expect(await signInError({ email: "race@example.com", password: PASSWORD, ipAddress: null })).toBe("RATE_LIMITED");
  });

  it("asks for the one-time code once the user turned the second factor on", async () => {
    const user = await newUser("erin@example.com");
    const { secret, uri, qrSvg } = await startTotpEnrolment({ userId: user.id, input: { currentPassword: PASSWORD } });
    expect(uri).toContain("otpauth://totp/");
    expect(qrSvg).toContain("<svg");
    // The secret is stored sealed, never in clear.
    const stored = await db().user.findUniqueOrThrow({ where: { id: user.id }, select: { totpSecret: true, totpEnabledAt: true } });
    expect(stored.totpSecret).not.toContain(secret);
    // Pending enrolment does not change sign-in yet.
    expect(await signInError({ email: "erin@example.com", password: PASSWORD, ipAddress: null })).toBe("OK");
    // Each code is good once, so enrolment, sign-in and turning it off use codes of successive steps.
    const code = freezeClockMidStep(secret);
    await expect(confirmTotpEnrolment({ userId: user.id, code: "000000" })).rejects.toBeInstanceOf(InvalidTotpCodeError);
    await confirmTotpEnrolment({ userId: user.id, code: await code(-1) });

    expect(await signInError({ email: "erin@example.com", password: PASSWORD, ipAddress: null })).toBe("TOTP_REQUIRED");
    expect(await signInError({ email: "erin@example.com", password: PASSWORD, totp: "123456", ipAddress: null })).toBe("INVALID_TOTP");
    expect(await signInError({ email: "erin@example.com", password: "wrong one", totp: await code(0), ipAddress: null })).toBe("INVALID_CREDENTIALS");
    expect(await signInError({ email: "erin@example.com", password: PASSWORD, totp: await code(0), ipAddress: null })).toBe("OK");

    // The next 30-second step: its code turns the factor off, and the audit rows of the two changes
    // get different times (with the clock frozen they had the same, and their order was a coin toss).
    vi.setSystemTime(Date.now() + 30_000);
    await disableTotp({ userId: user.id, input: { currentPassword: PASSWORD, code: await code(1) } });
    expect(await signInError({ email: "erin@example.com", password: PASSWORD, ipAddress: null })).toBe("OK");
    const audit = await db().auditEntry.findMany({ where: { userId: user.id }, orderBy: { createdAt: "asc" }, select: { action: true } });
    // Sign-ins are in the log too (tests/integration/backoffice/account-security.test.ts); here the factor changes.
    expect(audit.map((entry) => entry.action).filter((action) => action.startsWith("user.totp"))).toEqual(["user.totp_enabled", "user.totp_disabled"]);
  });

  it("accepts a one-time code once: a reused code fails like a wrong one, a later step's code passes", async () => {
    const user = await newUser("gina@example.com");
    const { secret } = await startTotpEnrolment({ userId: user.id, input: { currentPassword: PASSWORD } });
    const code = freezeClockMidStep(secret);
    // The code that confirmed the enrolment is used up as well.
    await confirmTotpEnrolment({ userId: user.id, code: await code(-1) });
    expect(await signInError({ email: "gina@example.com", password: PASSWORD, totp: await code(-1), ipAddress: null })).toBe("INVALID_TOTP");

    expect(await signInError({ email: "gina@example.com", password: PASSWORD, totp: await code(0), ipAddress: "10.0.0.4" })).toBe("OK");
    expect(await signInError({ email: "gina@example.com", password: PASSWORD, totp: await code(0), ipAddress: "10.0.0.4" })).toBe("INVALID_TOTP");
    // The step of the accepted code is recorded; the next step's code still passes.
    expect((await db().user.findUniqueOrThrow({ where: { id: user.id } })).totpLastUsedStep).toBe(Math.floor(Date.now() / 30_000));
    expect(await signInError({ email: "gina@example.com", password: PASSWORD, totp: await code(1), ipAddress: "10.0.0.4" })).toBe("OK");

    // The clock is frozen, so count the recorded attempts rather than order them.
    expect(await db().signInAttempt.count({ where: { email: "gina@example.com", succeeded: true } })).toBe(2);
    expect(await db().signInAttempt.count({ where: { email: "gina@example.com", succeeded: false } })).toBe(2);
    // Nor can an already used code turn the second factor off.
    await expect(disableTotp({ userId: user.id, input: { currentPassword: PASSWORD, code: await code(1) } })).rejects.toBeInstanceOf(InvalidTotpCodeError);
    expect((await db().user.findUniqueOrThrow({ where: { id: user.id } })).totpEnabledAt).not.toBeNull();
  });

  it("lets exactly one of several concurrent sign-ins with the same code through", async () => {
    const user = await newUser("hank@example.com");
    const { secret } = await startTotpEnrolment({ userId: user.id, input: { currentPassword: PASSWORD } });
    const code = freezeClockMidStep(secret);
    await confirmTotpEnrolment({ userId: user.id, code: await code(-1) });
    const totp = await code(0);
    const results = await Promise.all(
      Array.from({ length: 4 }, () => signInError({ email: "hank@example.com", password: PASSWORD, totp, ipAddress: null })),
    );
    expect(results.filter((result) => result === "OK")).toHaveLength(1);
    expect(results.filter((result) => result === "INVALID_TOTP")).toHaveLength(3);
    expect(await db().signInAttempt.count({ where: { email: "hank@example.com", succeeded: true } })).toBe(1);
  });
});

describe("disableTotp", () => {
  it("needs a current code and stops guessing after 5 wrong ones", async () => {
    const user = await newUser("frank@example.com");
    const { secret } = await startTotpEnrolment({ userId: user.id, input: { currentPassword: PASSWORD } });
    await confirmTotpEnrolment({ userId: user.id, code: await generate({ secret }) });
    for (let index = 0; index < MAX_FAILURES_PER_EMAIL; index++) {
      await expect(disableTotp({ userId: user.id, input: { currentPassword: PASSWORD, code: String(100000 + index) } })).rejects.toBeInstanceOf(InvalidTotpCodeError);
    }
    await expect(disableTotp({ userId: user.id, input: { currentPassword: PASSWORD, code: await generate({ secret }) } })).rejects.toBeInstanceOf(TotpAttemptsExceededError);
    expect((await db().user.findUniqueOrThrow({ where: { id: user.id } })).totpEnabledAt).not.toBeNull();
  });
});
