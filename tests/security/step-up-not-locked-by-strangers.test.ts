// Security review 4, L2 (review 3's L3 through another door): step-up confirmations that passed no
// client address (creating and rolling keys, team changes, invitations, acquirer accounts, TOTP) were
// counted under one key, every failure for the email from anywhere. Five wrong sign-ins by a stranger
// who knew an owner's email locked that owner out of all of them for 15 minutes at a time. Against a
// real database through the sign-in check and the use cases the back office calls: a stranger's
// failed sign-ins do not stop the owner's step-ups; guessing the password through step-up is still
// limited, for the session's own user.
import { describe, expect, it } from "vitest";
import { authenticateUser, SignInError } from "@/lib/auth/authenticate-user";
import type { Actor } from "@/lib/auth/actor";
import { IdentityNotConfirmedError } from "@/lib/auth/confirm-identity";
import { addTeamMember } from "@/lib/backoffice/actions/add-team-member";
import { createKey } from "@/lib/backoffice/actions/create-key";
import { createUser } from "@/lib/users/create-user";
import { createTestMerchant } from "@/tests/helpers/merchant-factories";
import { useTestDatabase } from "@/tests/helpers/test-database";

useTestDatabase();

const PASSWORD = "a long enough password";

async function owner(): Promise<{ actor: Actor; email: string }> {
  const { merchantId } = await createTestMerchant();
  const email = `owner-${merchantId}@example.com`;
  const user = await createUser({ merchantId, email, name: "Owner", password: PASSWORD, role: "OWNER" });
  return { actor: { userId: user.id, merchantId, role: "OWNER", mode: "test" }, email };
}

async function strangerGuesses(email: string, count: number): Promise<string[]> {
  const codes: string[] = [];
  for (let index = 0; index < count; index++) {
    try {
      await authenticateUser({ email, password: `guess ${index}`, ipAddress: "198.51.100.66" });
      codes.push("OK");
    } catch (error) {
      if (!(error instanceof SignInError)) throw error;
      codes.push(error.code);
    }
  }
  return codes;
}

async function stepUpOutcome(work: () => Promise<unknown>): Promise<string> {
  try {
    await work();
    return "done";
  } catch (error) {
    if (error instanceof IdentityNotConfirmedError) return error.reason;
    throw error;
  }
}

describe("L2: a stranger's failed sign-ins do not lock an owner out of step-up", () => {
  it("L2: after six wrong sign-ins for the owner's email from a stranger's address, the owner still creates a key and adds a team member with the right password", async () => {
    const { actor, email } = await owner();
    const codes = await strangerGuesses(email, 6);
    expect(codes.slice(0, 5)).toEqual(Array(5).fill("INVALID_CREDENTIALS"));
    expect(codes[5]).toBe("RATE_LIMITED");
    expect(await stepUpOutcome(() => createKey({ actor, input: { name: "After the stranger", currentPassword: PASSWORD } }))).toBe("done");
    expect(
      await stepUpOutcome(() =>
        addTeamMember({
          actor,
          input: { email: `dev-${actor.merchantId}@example.com`, name: "Dev", role: "DEVELOPER", password: "the developer's first password", currentPassword: PASSWORD },
        }),
      ),
    ).toBe("done");
  });

  it("L2: wrong passwords typed into step-up are still limited: after five, even the right one is refused for a while", async () => {
    const { actor } = await owner();
    const outcomes: string[] = [];
    for (let index = 0; index < 5; index++) outcomes.push(await stepUpOutcome(() => createKey({ actor, input: { name: "Guess", currentPassword: `guess ${index}` } })));
    expect(outcomes).toEqual(Array(5).fill("password"));
    expect(await stepUpOutcome(() => createKey({ actor, input: { name: "Right", currentPassword: PASSWORD } }))).toBe("limited");
  });
});
