// Part of a card-data key rotation (`cli cards rotate-key`): acquirer credentials are sealed under a
// key derived from CARD_DATA_KEY (seal-credentials.ts), so they are re-sealed under the current key
// too; otherwise removing the old key would stop every payment of the accounts sealed under it.
// Each row is updated only if it still holds what was read, so a credential changed meanwhile is
// never overwritten; running it again (or twice at once) is harmless. The reporting API's
// credentials (issue 40) are sealed under the same key and re-sealed the same way; `remaining`
// counts both.
import { cardKeyMaterial } from "../../cards/card-encryption";
import { db } from "../../db";
import { resealCredentials } from "./seal-credentials";

export async function resealAcquirerCredentials(): Promise<{ resealed: number; remaining: number }> {
  const keyId = cardKeyMaterial().id;
  const rows = await db().acquirerAccount.findMany({
    where: { credentialsKeyId: { not: keyId } },
    select: { id: true, credentialsSealed: true, credentialsKeyId: true },
  });
  let resealed = 0;
  for (const row of rows) {
    // Throws CardKeyUnavailableError when the old key is not configured: nothing is changed then.
    const sealed = resealCredentials(row, row.id);
    const updated = await db().acquirerAccount.updateMany({
      where: { id: row.id, credentialsSealed: row.credentialsSealed, credentialsKeyId: row.credentialsKeyId },
      data: sealed,
    });
    resealed += updated.count;
  }
  const reporting = await db().acquirerAccount.findMany({
    where: { reportingCredentialsKeyId: { not: keyId }, reportingCredentialsSealed: { not: null } },
    select: { id: true, reportingCredentialsSealed: true, reportingCredentialsKeyId: true },
  });
  for (const row of reporting) {
    const old = { credentialsSealed: row.reportingCredentialsSealed!, credentialsKeyId: row.reportingCredentialsKeyId! };
    const sealed = resealCredentials(old, row.id, "reporting");
    const updated = await db().acquirerAccount.updateMany({
      where: { id: row.id, reportingCredentialsSealed: old.credentialsSealed, reportingCredentialsKeyId: old.credentialsKeyId },
      data: { reportingCredentialsSealed: sealed.credentialsSealed, reportingCredentialsKeyId: sealed.credentialsKeyId },
    });
    resealed += updated.count;
  }
  const remaining =
    (await db().acquirerAccount.count({ where: { credentialsKeyId: { not: keyId } } })) +
    (await db().acquirerAccount.count({ where: { reportingCredentialsKeyId: { not: keyId }, reportingCredentialsSealed: { not: null } } }));
  return { resealed, remaining };
}
