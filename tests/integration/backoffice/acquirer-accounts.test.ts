// Settings → Acquirer accounts use cases: only owners, only with the step-up, only their own
// merchant's accounts; bad input names its field and saves nothing; the audit row has the before and
// after of the non-secret fields and never a credential.
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { useTestDatabase } from "@/tests/helpers/test-database";
import { createTestMerchant } from "@/tests/helpers/merchant-factories";
import { addAcquirerAccount } from "@/lib/backoffice/actions/add-acquirer-account";
import { changeAcquirerAccount } from "@/lib/backoffice/actions/change-acquirer-account";
import { testAcquirerAccount } from "@/lib/backoffice/actions/test-acquirer-account";
import { IdentityNotConfirmedError } from "@/lib/auth/confirm-identity";
import { ForbiddenError, NotFoundError, type Actor } from "@/lib/auth/actor";
import { createUser } from "@/lib/users/create-user";
import { db } from "@/lib/db";
import type { UserRole } from "@/lib/generated/prisma/enums";
import { CLEARHAUS_SANDBOX_ACCOUNTS } from "@/lib/sandboxes/acquirers/clearhaus/accounts";

useTestDatabase();

const PASSWORD = "long enough password";

async function actorFor(merchantId: string, role: UserRole): Promise<Actor> {
  const user = await createUser({
    merchantId,
    email: `${role.toLowerCase()}-${merchantId}-${Math.random().toString(36).slice(2)}@example.com`,
    name: role,
    password: PASSWORD,
    role,
  });
  return { userId: user.id, merchantId, mode: "test" as const, role };
}

const sandbox = CLEARHAUS_SANDBOX_ACCOUNTS[1]!;
const form = (extra: Record<string, string> = {}): Record<string, string> => ({
  processor: "clearhaus",
  name: "Clearhaus EUR",
  acquirerMerchantId: sandbox.merchantId,
  merchantName: "Shop",
  country: "DK",
  mcc: "5732",
  descriptor: "Shop",
  currencies: "EUR",
  mode: "live",
  "bin.visa": "411111",
  enabled: "on",
  "credential.apiKey": sandbox.apiKey,
  currentPassword: PASSWORD,
  ...extra,
});

function fieldsOf(error: unknown): string[] {
  expect(error).toBeInstanceOf(z.ZodError);
  return [...new Set((error as z.ZodError).issues.map((issue) => String(issue.path[0])))].sort();
}

describe("acquirer accounts in the back office", () => {
  it("an owner adds one with the step-up; the audit row holds the non-secret fields and a fingerprint, never the credential", async () => {
    const { merchantId } = await createTestMerchant({ acquirerAccounts: false });
    const owner = await actorFor(merchantId, "OWNER");
    await expect(addAcquirerAccount({ actor: owner, form: form({ currentPassword: "" }) })).rejects.toThrow(/Enter your password/);
    await expect(addAcquirerAccount({ actor: owner, form: form({ currentPassword: "not my password" }) })).rejects.toBeInstanceOf(
      IdentityNotConfirmedError,
    );
    expect(await db().acquirerAccount.count({ where: { merchantId } })).toBe(0);

    const account = await addAcquirerAccount({ actor: owner, form: form() });
    expect(account).toMatchObject({
      processor: "clearhaus",
      currencies: ["EUR"],
      mode: "live",
      enabled: true,
      acquirerBins: { visa: "411111" },
    });
    const audit = await db().auditEntry.findFirstOrThrow({ where: { merchantId, action: "acquirer_account.created" } });
    expect(audit).toMatchObject({
      userId: owner.userId,
      target: account.id,
      details: { after: { mcc: "5732", credentialsFingerprint: account.credentialsFingerprint } },
    });
    expect(JSON.stringify(audit.details)).not.toContain(sandbox.apiKey);
  });

  it("refuses bad input with the field named, before asking for the password, and saves nothing", async () => {
    const { merchantId } = await createTestMerchant({ acquirerAccounts: false });
    const owner = await actorFor(merchantId, "OWNER");
    const error = await addAcquirerAccount({
      actor: owner,
      form: form({
        mcc: "59",
        descriptor: "12345",
        currencies: "EURO",
        "bin.visa": "4x",
        "credential.apiKey": "not-a-uuid",
        country: "ZZ",
        currentPassword: "wrong",
      }),
    }).catch((thrown: unknown) => thrown);
    // Every problem at once, under the form's field names.
    expect(fieldsOf(error)).toEqual(["bin.visa", "country", "credential.apiKey", "currencies", "descriptor", "mcc"]);
    const credentialError = await addAcquirerAccount({ actor: owner, form: form({ "credential.apiKey": "not-a-uuid" }) }).catch(
      (thrown: unknown) => thrown,
    );
    expect(fieldsOf(credentialError)).toEqual(["credential.apiKey"]);
    const descriptorError = await addAcquirerAccount({ actor: owner, form: form({ descriptor: "12345" }) }).catch(
      (thrown: unknown) => thrown,
    );
    expect(fieldsOf(descriptorError)).toEqual(["descriptor"]);
    expect(await db().acquirerAccount.count({ where: { merchantId } })).toBe(0);
    // No wrong password was counted: the fields failed first.
    expect(await db().signInAttempt.count({ where: { userId: owner.userId, succeeded: false } })).toBe(0);
  });

  it("changes credentials with the step-up: a new fingerprint in the audit row, before and after", async () => {
    const { merchantId } = await createTestMerchant({ acquirerAccounts: false });
    const owner = await actorFor(merchantId, "OWNER");
    const account = await addAcquirerAccount({ actor: owner, form: form() });
    await expect(
      changeAcquirerAccount({ actor: owner, form: { accountId: account.id, "credential.apiKey": CLEARHAUS_SANDBOX_ACCOUNTS[2]!.apiKey } }),
    ).rejects.toThrow(/Enter your password/);
    const { after, credentialsChanged } = await changeAcquirerAccount({
      actor: owner,
      form: {
        accountId: account.id,
        "credential.apiKey": CLEARHAUS_SANDBOX_ACCOUNTS[2]!.apiKey,
        descriptor: "New Shop",
        enabled: "false",
        currentPassword: PASSWORD,
      },
    });
    expect(credentialsChanged).toBe(true);
    expect(after).toMatchObject({ descriptor: "New Shop", enabled: false, mcc: "5732" });
    expect(after.credentialsFingerprint).not.toBe(account.credentialsFingerprint);
    const audit = await db().auditEntry.findFirstOrThrow({ where: { merchantId, action: "acquirer_account.credentials_changed" } });
    expect(audit.details).toMatchObject({
      before: { descriptor: "Shop", enabled: true, credentialsFingerprint: account.credentialsFingerprint },
      after: { descriptor: "New Shop", enabled: false, credentialsFingerprint: after.credentialsFingerprint },
    });
    expect(JSON.stringify(audit.details)).not.toContain(CLEARHAUS_SANDBOX_ACCOUNTS[2]!.apiKey);
  });

  it("is for owners only, and for their own merchant's accounts only", async () => {
    const { merchantId } = await createTestMerchant();
    const other = await createTestMerchant();
    const account = await db().acquirerAccount.findFirstOrThrow({ where: { merchantId: other.merchantId } });
    for (const role of ["DEVELOPER", "VIEWER"] as const) {
      const actor = await actorFor(merchantId, role);
      await expect(addAcquirerAccount({ actor, form: form() })).rejects.toBeInstanceOf(ForbiddenError);
      await expect(
        changeAcquirerAccount({ actor, form: { accountId: account.id, enabled: "false", currentPassword: PASSWORD } }),
      ).rejects.toBeInstanceOf(ForbiddenError);
      await expect(testAcquirerAccount({ actor, form: { accountId: account.id } })).rejects.toBeInstanceOf(ForbiddenError);
    }
    const owner = await actorFor(merchantId, "OWNER");
    await expect(
      changeAcquirerAccount({ actor: owner, form: { accountId: account.id, enabled: "false", currentPassword: PASSWORD } }),
    ).rejects.toBeInstanceOf(NotFoundError);
    await expect(testAcquirerAccount({ actor: owner, form: { accountId: account.id } })).rejects.toBeInstanceOf(NotFoundError);
    expect((await db().acquirerAccount.findUniqueOrThrow({ where: { id: account.id } })).enabled).toBe(true);
  });
});
