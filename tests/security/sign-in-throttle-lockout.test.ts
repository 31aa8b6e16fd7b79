// Security review 3, L3: the sign-in throttle counted failures per email across every address, so
// anyone who knew an owner's email could keep that owner out of sign-in and of every step-up with five
// wrong passwords per 15 minutes. Against a real database through the sign-in check: failures count
// per (email, address) and per address, so a stranger's guesses lock out the stranger, not the owner
// at their own address; guesses for one email from many addresses still meet an email-wide ceiling,
// which an address the user signed in from recently is not held to.
import { describe, expect, it } from "vitest";
import { createUser } from "@/lib/users/create-user";
import { createTestMerchant } from "@/tests/helpers/merchant-factories";
import { useTestDatabase } from "@/tests/helpers/test-database";
import { signInOutcome } from "@/tests/helpers/sign-in";

useTestDatabase();

const PASSWORD = "a long enough password";

const attempt = (email: string, password: string, ipAddress: string) => signInOutcome({ email, password, ipAddress });

async function owner(): Promise<string> {
  const { merchantId } = await createTestMerchant();
  const email = `owner-${merchantId}@example.com`;
  await createUser({ merchantId, email, name: "Owner", password: PASSWORD, role: "OWNER" });
  return email;
}

describe("L3: a stranger cannot lock an owner out", () => {
  it("L3: twelve wrong passwords from a stranger's address lock that address out for the email, not the owner at theirs", async () => {
    const email = await owner();
    const results = await Promise.all(Array.from({ length: 12 }, () => attempt(email, "not the password", "198.51.100.9")));
    expect(results.filter((code) => code === "INVALID_CREDENTIALS").length).toBeLessThanOrEqual(5);
    expect(await attempt(email, PASSWORD, "198.51.100.9")).toBe("RATE_LIMITED");
    expect(await attempt(email, PASSWORD, "192.0.2.5")).toBe("OK");
  });

  it("L3: guesses from many addresses meet an email-wide ceiling, but not at an address the owner signed in from", async () => {
    const email = await owner();
    expect(await attempt(email, PASSWORD, "192.0.2.5")).toBe("OK");
    for (let index = 1; index <= 25; index++) await attempt(email, "not the password", `203.0.113.${index}`);
    expect(await attempt(email, PASSWORD, "203.0.113.200")).toBe("RATE_LIMITED");
    expect(await attempt(email, PASSWORD, "192.0.2.5")).toBe("OK");
  });

  it("L3: one address guessing across many accounts is still locked after 30 failures", async () => {
    const emails = await Promise.all(Array.from({ length: 3 }, () => owner()));
    for (let index = 0; index < 30; index++) await attempt(emails[index % 3]!, "not the password", "198.51.100.44");
    expect(await attempt(emails[0]!, PASSWORD, "198.51.100.44")).toBe("RATE_LIMITED");
    expect(await attempt(emails[0]!, PASSWORD, "192.0.2.6")).toBe("OK");
  });
});
