// "Test connection" of an acquirer account: one harmless authenticated call its acquirer offers
// (Clearhaus GET /account, Finaro a retrieval of an unused reference, Bambora a read of an unknown
// transaction and a report search; each connector's checkConnection says why), with the account's own credentials.
// Where the acquirer reports the account's facts (Clearhaus), they are compared with what is stored.
import { db } from "../../db";
import type { ConnectionCheck } from "../../acquirers/contract";
import { ProcessorNotConfiguredError } from "../../acquirers/registry";
import { AcquirerAccountMissingError, accountConnector, SEALED_ACCOUNT_SELECT } from "./account-connector";
import { AcquirerAccountNotFoundError } from "./account-rules";

export interface ConnectionTest extends ConnectionCheck {
  /** Stored facts that differ from what the acquirer reported. */
  mismatches: string[];
}

export async function testAcquirerConnection({
  merchantId,
  accountId,
  timeoutMs,
}: {
  merchantId: string;
  accountId: string;
  timeoutMs?: number;
}): Promise<ConnectionTest> {
  const row = await db().acquirerAccount.findFirst({
    where: { id: accountId, merchantId },
    select: { ...SEALED_ACCOUNT_SELECT, acquirerMerchantId: true, mcc: true, country: true },
  });
  if (!row) throw new AcquirerAccountNotFoundError();
  let check: ConnectionCheck;
  try {
    check = await accountConnector(row, { timeoutMs }).checkConnection();
  } catch (error) {
    if (!(error instanceof ProcessorNotConfiguredError || error instanceof AcquirerAccountMissingError)) throw error;
    return { ok: false, message: error.message, mismatches: [] };
  }
  const reported = check.details ?? {};
  const mismatches = [
    reported.merchant_id !== undefined && reported.merchant_id !== row.acquirerMerchantId
      ? `merchant id: the acquirer has ${reported.merchant_id}, the account ${row.acquirerMerchantId}`
      : undefined,
    reported.mcc !== undefined && reported.mcc !== row.mcc ? `MCC: the acquirer has ${reported.mcc}, the account ${row.mcc}` : undefined,
    reported.country !== undefined && reported.country !== row.country
      ? `country: the acquirer has ${reported.country}, the account ${row.country}`
      : undefined,
  ].filter((line): line is string => Boolean(line));
  return { ...check, mismatches };
}
