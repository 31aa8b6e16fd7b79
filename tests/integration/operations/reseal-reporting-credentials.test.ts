// A card-data key rotation (`cards rotate-key`, resealAcquirerCredentials) re-seals the acquirer
// accounts' reporting API credentials (issue 40) as well as their gateway credentials, still bound
// to their account and their purpose: once the old key is gone they still open, and a reporting
// ciphertext never opens as the gateway's credentials.
import { randomBytes } from "node:crypto";
import { afterEach, describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { resetConfig } from "@/lib/env";
import { resealAcquirerCredentials } from "@/lib/routing/accounts/reseal-acquirer-credentials";
import { openCredentials, openReportingCredentials, sealReportingCredentials } from "@/lib/routing/accounts/seal-credentials";
import { FAKE_CREDENTIALS } from "@/tests/helpers/fake-reporting";
import { createTestMerchant } from "@/tests/helpers/merchant-factories";
import { useTestDatabase } from "@/tests/helpers/test-database";

useTestDatabase();
const oldKey = randomBytes(32).toString("base64");
const newKey = randomBytes(32).toString("base64");
const saved = { key: process.env.CARD_DATA_KEY, previous: process.env.CARD_DATA_PREVIOUS_KEYS };

function useKeys(current: string, previous = ""): void {
  process.env.CARD_DATA_KEY = current;
  process.env.CARD_DATA_PREVIOUS_KEYS = previous;
  resetConfig();
}

afterEach(() => {
  process.env.CARD_DATA_KEY = saved.key;
  process.env.CARD_DATA_PREVIOUS_KEYS = saved.previous;
  resetConfig();
});

describe("reporting credentials and the card-data key rotation", () => {
  it("are re-sealed under the new key, bound to their account and purpose; afterwards the old key is not needed", async () => {
    useKeys(oldKey);
    const { merchantId } = await createTestMerchant();
    const account = await db().acquirerAccount.findFirstOrThrow({ where: { merchantId, processor: "clearhaus" } });
    const sealed = sealReportingCredentials("clearhaus", FAKE_CREDENTIALS, account.id);
    await db().acquirerAccount.update({ where: { id: account.id }, data: { reportingCredentialsSealed: sealed.credentialsSealed, reportingCredentialsKeyId: sealed.credentialsKeyId } });
    // Bound to the purpose: the reporting ciphertext does not open as the gateway's credentials.
    expect(() => openCredentials(sealed, account.id)).toThrow();

    useKeys(newKey, oldKey);
    // Three gateway credentials (one sandbox account per processor) and one reporting credential.
    expect(await resealAcquirerCredentials()).toEqual({ resealed: 4, remaining: 0 });
    expect(await resealAcquirerCredentials()).toEqual({ resealed: 0, remaining: 0 });

    useKeys(newKey);
    const row = await db().acquirerAccount.findUniqueOrThrow({ where: { id: account.id } });
    expect(row.reportingCredentialsKeyId).not.toBe(sealed.credentialsKeyId);
    expect(row.reportingCredentialsKeyId).toBe(row.credentialsKeyId);
    expect(openReportingCredentials({ credentialsSealed: row.reportingCredentialsSealed!, credentialsKeyId: row.reportingCredentialsKeyId! }, account.id)).toEqual({
      processor: "clearhaus",
      credentials: FAKE_CREDENTIALS,
    });
    // Bound to the account: another account's id does not open it.
    const other = await db().acquirerAccount.findFirstOrThrow({ where: { merchantId, processor: "finaro" } });
    expect(() => openReportingCredentials({ credentialsSealed: row.reportingCredentialsSealed!, credentialsKeyId: row.reportingCredentialsKeyId! }, other.id)).toThrow();
  });
});
