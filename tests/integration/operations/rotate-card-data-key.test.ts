// docs/operations.md, "Rotating CARD_DATA_KEY": the runbook's command, run as the operator runs it
// (the CLI in its own process), moves every stored card and back-office TOTP secret to the new key,
// so that the old key can then leave the configuration without losing a card or a sign-in.
import { execFile } from "node:child_process";
import { mkdtempSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { randomBytes } from "node:crypto";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { CardKeyUnavailableError, decryptPan } from "@/lib/cards/card-encryption";
import { openTotpSecret, sealTotpSecret } from "@/lib/auth/totp";
import { createUser } from "@/lib/users/create-user";
import { openCredentials } from "@/lib/routing/accounts/seal-credentials";
import { createStoredCard, createTestMerchant } from "../../helpers/merchant-factories";
import { secretsEnv, useCardDataKeys } from "@/tests/helpers/set-env";
import { useTestDatabase } from "../../helpers/test-database";
import { npmScript } from "@/tests/helpers/service-process";

const run = promisify(execFile);
const database = useTestDatabase();
const dataDir = mkdtempSync(path.join(os.tmpdir(), "cps-rotate-"));
const { oldKey, newKey, useKeys } = useCardDataKeys();

async function rotateKey(current: string, previous: string): Promise<{ stdout: string; stderr: string; code: number }> {
  try {
    const { stdout, stderr } = await run(...npmScript("cli", ["cards", "rotate-key", "--json"]), {
      env: {
        ...process.env,
        DATABASE_URL: database.current().url,
        DATA_DIR: dataDir,
        ...secretsEnv(),
        CARD_DATA_KEY: current,
        CARD_DATA_PREVIOUS_KEYS: previous,
      },
    });
    return { stdout, stderr, code: 0 };
  } catch (error) {
    const failure = error as { stdout: string; stderr: string; code: number };
    return { stdout: failure.stdout, stderr: failure.stderr, code: failure.code };
  }
}

describe("cli cards rotate-key", () => {
  it("re-encrypts every stored card, TOTP secret and acquirer account's credentials under the new key; afterwards the old key is not needed", async () => {
    useKeys(oldKey);
    const { merchantId } = await createTestMerchant();
    const pans = ["4111111111111111", "5555555555554444", "4000000000000002"];
    const cardIds = [];
    for (const pan of pans) cardIds.push(await createStoredCard(merchantId, { pan }));
    const user = await createUser({ merchantId, email: "totp@example.test", name: "Totp", password: "a long enough password 1", role: "OWNER" });
    await db().user.update({ where: { id: user.id }, data: { totpSecret: sealTotpSecret("JBSWY3DPEHPK3PXP", user.id) } });
    const oldKeyId = (await db().storedCard.findFirstOrThrow({ select: { keyId: true } })).keyId;

    // Step 1 of the runbook (new key deployed, old key kept for reading), then the command.
    const result = await rotateKey(newKey, oldKey);
    expect(result.stderr).toBe("");
    expect(result.code).toBe(0);
    const output = JSON.parse(result.stdout) as { keyid: string; reencrypted: number; totpResealed: number; complete: boolean; remaining: object };
    // The merchant's three sandbox acquirer accounts (one per processor) are re-sealed too.
    expect(output).toMatchObject({ reencrypted: 3, totpResealed: 1, acquirerCredentialsResealed: 3, acquirerCredentialsRemaining: 0, complete: true, remaining: {} });
    expect(output.keyid).not.toBe(oldKeyId);

    // Step 2: the old key leaves the configuration; every card and the TOTP secret still open.
    useKeys(newKey);
    const stored = await db().storedCard.findMany({ where: { id: { in: cardIds } }, orderBy: { id: "asc" } });
    expect(new Set(stored.map((card) => card.keyId))).toEqual(new Set([output.keyid]));
    const byId = new Map(cardIds.map((id, index) => [id, pans[index]]));
    for (const card of stored) expect(decryptPan(card)).toBe(byId.get(card.id));
    const sealed = (await db().user.findUniqueOrThrow({ where: { id: user.id } })).totpSecret!;
    expect(sealed.startsWith(`totp1:${output.keyid}:`)).toBe(true);
    expect(await openTotpSecret(sealed, user.id)).toBe("JBSWY3DPEHPK3PXP");
    const accounts = await db().acquirerAccount.findMany({ where: { merchantId } });
    expect(accounts.map((account) => account.credentialsKeyId)).toEqual([output.keyid, output.keyid, output.keyid]);
    for (const account of accounts) expect(openCredentials(account, account.id).processor).toBe(account.processor);

    // Running it again finds nothing to do.
    const again = JSON.parse((await rotateKey(newKey, oldKey)).stdout) as { reencrypted: number; totpResealed: number; complete: boolean };
    expect(again).toMatchObject({ reencrypted: 0, totpResealed: 0, acquirerCredentialsResealed: 0, complete: true });
  });

  it("refuses, changing nothing, when the key a card is under is not configured", async () => {
    useKeys(oldKey);
    const { merchantId } = await createTestMerchant({ name: "Second" });
    const cardId = await createStoredCard(merchantId, { pan: "4111111111111111" });
    const before = await db().storedCard.findUniqueOrThrow({ where: { id: cardId } });

    const result = await rotateKey(randomBytes(32).toString("base64"), newKey); // the old key was forgotten
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(before.keyId);
    const after = await db().storedCard.findUniqueOrThrow({ where: { id: cardId } });
    expect(after.panEncrypted).toBe(before.panEncrypted);
    useKeys(oldKey);
    expect(decryptPan(after)).toBe("4111111111111111");
    useKeys(newKey);
    expect(() => decryptPan(after)).toThrow(CardKeyUnavailableError);
  });
});
