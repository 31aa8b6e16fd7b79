// A card-data key rotation (`cards rotate-key`, resealAcquirerCredentials) re-seals the acquirer
// accounts' reporting API credentials (issue 40) as well as their gateway credentials, still bound
// to their account and their purpose: once the old key is gone they still open, and a reporting
// ciphertext never opens as the gateway's credentials.
import { describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { resealAcquirerCredentials } from "@/lib/routing/accounts/reseal-acquirer-credentials";
import { openCredentials, openReportingCredentials, sealReportingCredentials } from "@/lib/routing/accounts/seal-credentials";
import { FAKE_CREDENTIALS } from "@/tests/helpers/fake-reporting";
import { createTestMerchant } from "@/tests/helpers/merchant-factories";
import { useCardDataKeys } from "@/tests/helpers/set-env";
import { useTestDatabase } from "@/tests/helpers/test-database";

useTestDatabase();
const { oldKey, newKey, useKeys } = useCardDataKeys();

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
