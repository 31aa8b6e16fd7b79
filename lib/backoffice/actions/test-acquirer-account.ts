// Back office: "Test connection" of one of the merchant's acquirer accounts (owners): one harmless
// authenticated call with the account's credentials; the answer is shown and the test audited.
import { z } from "zod";
import { db } from "../../db";
import { assertCan, NotFoundError, type Actor } from "../../auth/actor";
import { AcquirerAccountNotFoundError } from "../../routing/accounts/account-rules";
import { testAcquirerConnection, type ConnectionTest } from "../../routing/accounts/test-acquirer-connection";
import { recordAudit } from "../../audit/audit";

export async function testAcquirerAccount({ actor, form }: { actor: Actor; form: Record<string, string> }): Promise<ConnectionTest> {
  assertCan(actor, "acquirer_accounts:write");
  const accountId = z.string().min(1).max(64).parse(form.accountId);
  let result: ConnectionTest;
  try {
    result = await testAcquirerConnection({ merchantId: actor.merchantId, accountId });
  } catch (error) {
    if (error instanceof AcquirerAccountNotFoundError) throw new NotFoundError("Acquirer account");
    throw error;
  }
  await db().$transaction((tx) =>
    recordAudit(tx, {
      actor,
      action: "acquirer_account.connection_tested",
      target: accountId,
      details: { ok: result.ok, message: result.message },
    }),
  );
  return result;
}
