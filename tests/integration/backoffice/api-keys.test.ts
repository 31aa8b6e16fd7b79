// Settings → API-key use cases: create, roll with a grace period, revoke; what the API then accepts;
// the role check and the merchant scope; the audit trail.
import { describe, expect, it } from "vitest";
import { useTestDatabase } from "@/tests/helpers/test-database";
import { createTestMerchant } from "@/tests/helpers/merchant-factories";
import { createKey } from "@/lib/backoffice/actions/create-key";
import { rollKey } from "@/lib/backoffice/actions/roll-key";
import { IdentityNotConfirmedError } from "@/lib/auth/confirm-identity";
import { revokeKey } from "@/lib/backoffice/actions/revoke-key";
import { listApiKeys } from "@/lib/api-keys/list-api-keys";
import { ApiKeyNotFoundError } from "@/lib/api-keys/revoke-api-key";
import { ApiKeyNotRollableError } from "@/lib/api-keys/roll-api-key";
import { authenticateApiKey } from "@/lib/api/authenticate-api-key";
import { ForbiddenError, type Actor } from "@/lib/auth/actor";
import { createUser } from "@/lib/users/create-user";
import { db } from "@/lib/db";
import { ApiError } from "@/lib/errors";
import type { UserRole } from "@/lib/generated/prisma/enums";

useTestDatabase();

async function actorFor(merchantId: string, role: UserRole): Promise<Actor> {
  const user = await createUser({ merchantId, email: `${role.toLowerCase()}-${merchantId}-${Math.random().toString(36).slice(2)}@example.com`, name: role, password: "long enough password", role });
  return { userId: user.id, merchantId, mode: "test" as const, role };
}

const basic = (key: string) => `Basic ${key}`;

describe("API keys in the back office", () => {
  it("creates a key shown once, lists it by prefix only, and the API accepts it", async () => {
    const { merchantId } = await createTestMerchant();
    const owner = await actorFor(merchantId, "OWNER");
    const { apiKey, record } = await createKey({ actor: owner, input: { currentPassword: "long enough password", name: "  Web shop  " } });
    expect(apiKey).toMatch(/^cps_test_[0-9A-Za-z]{40}$/);
    expect(record.name).toBe("Web shop");
    const keys = await listApiKeys({ merchantId, mode: "test" as const });
    const listed = keys.find((key) => key.id === record.id)!;
    expect(listed).toMatchObject({ name: "Web shop", prefix: apiKey.slice(0, 16), state: "active" });
    expect(JSON.stringify(keys)).not.toContain(apiKey);
    await expect(authenticateApiKey({ authorization: basic(apiKey) })).resolves.toMatchObject({ merchantId });
    const audit = await db().auditEntry.findFirstOrThrow({ where: { merchantId, action: "api_key.created", target: record.id } });
    expect(audit.userId).toBe(owner.userId);
  });

  it("creates and rolls keys only with the signed-in user's password (step-up)", async () => {
    const { merchantId } = await createTestMerchant();
    const owner = await actorFor(merchantId, "OWNER");
    await expect(createKey({ actor: owner, input: { name: "No password" } })).rejects.toThrow(/Enter your password/);
    await expect(createKey({ actor: owner, input: { currentPassword: "not my password", name: "Wrong password" } })).rejects.toBeInstanceOf(IdentityNotConfirmedError);
    const { record } = await createKey({ actor: owner, input: { currentPassword: "long enough password", name: "Right password" } });
    await expect(rollKey({ actor: owner, input: { currentPassword: "not my password", apiKeyId: record.id, graceSeconds: 0 } })).rejects.toBeInstanceOf(IdentityNotConfirmedError);
    expect(await db().apiKey.count({ where: { merchantId, name: { in: ["No password", "Wrong password"] } } })).toBe(0);
  });

  it("refuses a key without a name", async () => {
    const { merchantId } = await createTestMerchant();
    const owner = await actorFor(merchantId, "OWNER");
    await expect(createKey({ actor: owner, input: { currentPassword: "long enough password", name: "   " } })).rejects.toThrow(/Give the key a name/);
  });

  it("rolls a key: the new one works at once, the old one until the grace period ends", async () => {
    const { merchantId } = await createTestMerchant();
    const developer = await actorFor(merchantId, "DEVELOPER");
    const { apiKey: oldKey, record } = await createKey({ actor: developer, input: { currentPassword: "long enough password", name: "Rolling" } });
    const before = Date.now();
    const rolled = await rollKey({ actor: developer, input: { currentPassword: "long enough password", apiKeyId: record.id, graceSeconds: "3600" } });
    expect(rolled.apiKey).not.toBe(oldKey);
    expect(rolled.oldKeyValidUntil.getTime()).toBeGreaterThanOrEqual(before + 3600_000 - 1000);
    await expect(authenticateApiKey({ authorization: basic(rolled.apiKey) })).resolves.toMatchObject({ merchantId });
    await expect(authenticateApiKey({ authorization: basic(oldKey) })).resolves.toMatchObject({ merchantId });
    // After the grace period the old key is refused.
    await expect(authenticateApiKey({ authorization: basic(oldKey), now: new Date(before + 3601_000 + 1000) })).rejects.toBeInstanceOf(ApiError);
    const keys = await listApiKeys({ merchantId, mode: "test" as const });
    expect(keys.find((key) => key.id === record.id)?.state).toBe("expiring");
    expect(keys.find((key) => key.id === rolled.record.id)).toMatchObject({ state: "active", rolledFromId: record.id, name: "Rolling" });
    const audit = await db().auditEntry.findFirstOrThrow({ where: { merchantId, action: "api_key.rolled" } });
    expect(audit.details).toMatchObject({ newKeyId: rolled.record.id });
  });

  it("rolls with no grace period by revoking the old key at once", async () => {
    const { merchantId } = await createTestMerchant();
    const owner = await actorFor(merchantId, "OWNER");
    const { apiKey: oldKey, record } = await createKey({ actor: owner, input: { currentPassword: "long enough password", name: "Now" } });
    await rollKey({ actor: owner, input: { currentPassword: "long enough password", apiKeyId: record.id, graceSeconds: 0 } });
    await expect(authenticateApiKey({ authorization: basic(oldKey) })).rejects.toThrow(/revoked/);
    await expect(rollKey({ actor: owner, input: { currentPassword: "long enough password", apiKeyId: record.id, graceSeconds: 0 } })).rejects.toBeInstanceOf(ApiKeyNotRollableError);
  });

  it("refuses grace periods beyond 7 days", async () => {
    const { merchantId } = await createTestMerchant();
    const owner = await actorFor(merchantId, "OWNER");
    const { record } = await createKey({ actor: owner, input: { currentPassword: "long enough password", name: "Long" } });
    await expect(rollKey({ actor: owner, input: { currentPassword: "long enough password", apiKeyId: record.id, graceSeconds: 8 * 86400 } })).rejects.toThrow(/at most 7 days/);
  });

  it("revokes a key: the API refuses it from the next request on", async () => {
    const { merchantId } = await createTestMerchant();
    const owner = await actorFor(merchantId, "OWNER");
    const { apiKey, record } = await createKey({ actor: owner, input: { currentPassword: "long enough password", name: "Doomed" } });
    // Used once, so the API's per-process key cache holds it: revoking must still apply at once.
    await expect(authenticateApiKey({ authorization: basic(apiKey) })).resolves.toMatchObject({ merchantId });
    await revokeKey({ actor: owner, input: { apiKeyId: record.id } });
    await expect(authenticateApiKey({ authorization: basic(apiKey) })).rejects.toThrow(/revoked/);
    expect((await listApiKeys({ merchantId, mode: "test" as const })).find((key) => key.id === record.id)?.state).toBe("revoked");
    expect(await db().auditEntry.count({ where: { merchantId, action: "api_key.revoked", target: record.id, userId: owner.userId } })).toBe(1);
  });

  it("lets a viewer change no key", async () => {
    const { merchantId } = await createTestMerchant();
    const owner = await actorFor(merchantId, "OWNER");
    const viewer = await actorFor(merchantId, "VIEWER");
    const { apiKey, record } = await createKey({ actor: owner, input: { currentPassword: "long enough password", name: "Kept" } });
    await expect(createKey({ actor: viewer, input: { currentPassword: "long enough password", name: "Mine" } })).rejects.toBeInstanceOf(ForbiddenError);
    await expect(rollKey({ actor: viewer, input: { currentPassword: "long enough password", apiKeyId: record.id, graceSeconds: 0 } })).rejects.toBeInstanceOf(ForbiddenError);
    await expect(revokeKey({ actor: viewer, input: { apiKeyId: record.id } })).rejects.toBeInstanceOf(ForbiddenError);
    await expect(authenticateApiKey({ authorization: basic(apiKey) })).resolves.toMatchObject({ merchantId });
    expect((await listApiKeys({ merchantId, mode: "test" as const })).map((key) => key.name).sort()).toEqual(["Kept", "Test key"]);
  });

  it("never reaches another merchant's key", async () => {
    const mine = await createTestMerchant();
    const theirs = await createTestMerchant();
    const owner = await actorFor(mine.merchantId, "OWNER");
    const theirKeyId = (await listApiKeys({ merchantId: theirs.merchantId , mode: "test" as const}))[0]!.id;
    await expect(revokeKey({ actor: owner, input: { apiKeyId: theirKeyId } })).rejects.toBeInstanceOf(ApiKeyNotFoundError);
    await expect(rollKey({ actor: owner, input: { currentPassword: "long enough password", apiKeyId: theirKeyId, graceSeconds: 0 } })).rejects.toBeInstanceOf(ApiKeyNotFoundError);
    await expect(authenticateApiKey({ authorization: basic(theirs.apiKey) })).resolves.toMatchObject({ merchantId: theirs.merchantId });
    // Their test and live keys, and no third.
    expect(await db().apiKey.count({ where: { merchantId: theirs.merchantId } })).toBe(2);
  });
});
