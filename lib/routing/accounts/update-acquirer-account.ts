// Changes an acquirer account of a merchant (CLI `accounts update|disable`, back office): any of its
// fields, its enabled flag, and its credentials (replaced whole, never read back). The payments it
// already authorized keep using it for their follow-ups, whatever changes here.
import { z } from "zod";
import { db, type Tx } from "../../db";
import { accountFieldsUpdateSchema, currenciesProblem } from "./account-input";
import { AcquirerAccountNotFoundError, checkCurrencyOverlap, fieldError, validateAccountInput } from "./account-rules";
import { ACCOUNT_VIEW_SELECT, toAccountView, type AcquirerAccountView } from "./account-view";
import { credentialsFingerprint, sealCredentials } from "./seal-credentials";

const updateInput = accountFieldsUpdateSchema.extend({ credentials: z.unknown().optional() });

export interface UpdateAcquirerAccountOptions {
  merchantId: string;
  accountId: string;
  /** Any of the account fields, and `credentials` to replace them all (write-only: never read back). */
  input: unknown;
  tx?: Tx;
}

/** Returns the account before and after (non-secret fields only, for the audit row). */
export async function updateAcquirerAccount({
  merchantId,
  accountId,
  input,
  tx,
}: UpdateAcquirerAccountOptions): Promise<{ before: AcquirerAccountView; after: AcquirerAccountView; credentialsChanged: boolean }> {
  const run = async (client: Tx) => {
    const current = await client.acquirerAccount.findFirst({ where: { id: accountId, merchantId }, select: ACCOUNT_VIEW_SELECT });
    if (!current) throw new AcquirerAccountNotFoundError();
    const before = toAccountView(current);
    // The platform is the account's own: another API is another account.
    const validated = validateAccountInput(updateInput, before.processor, input, { requireCredentials: false, platform: current.platform });
    const { credentials: _raw, currencies, ...fields } = validated.fields;
    const credentials = validated.credentials;
    const next = { ...before, ...fields, ...(currencies ?? {}) };
    // Credentials of an API the connector no longer speaks (bambora before issue 26): the account
    // stays disabled until new ones are entered, and then must take a currency its processor settles.
    if (next.enabled && before.credentialsNeeded && !credentials)
      throw fieldError("enabled", `enter the account's credentials first: ${before.credentialsNeeded}`);
    const currencyProblem = next.enabled ? currenciesProblem(before.processor, next, current.platform) : undefined;
    if (currencyProblem) throw fieldError("currencies", currencyProblem);
    // An account's payments belong to its mode, and their follow-ups go where the mode says: a live
    // account with payments cannot become a test one (its captures would reach a sandbox), nor the reverse.
    if (next.mode !== before.mode && (await client.payment.count({ where: { acquirerAccountId: accountId }, take: 1 })) > 0) {
      throw fieldError("mode", `this account has ${before.mode} payments, so it stays ${before.mode}: add a new account for ${next.mode} mode`);
    }
    await checkCurrencyOverlap(client, {
      id: accountId,
      merchantId,
      mode: next.mode,
      processor: before.processor,
      enabled: next.enabled,
      anyCurrency: next.anyCurrency,
      currencies: next.currencies,
    });
    if (fields.name && fields.name !== before.name) {
      const taken = await client.acquirerAccount.findUnique({
        where: { merchantId_name: { merchantId, name: fields.name } },
        select: { id: true },
      });
      if (taken) throw fieldError("name", "another acquirer account of this merchant has this name");
    }
    const row = await client.acquirerAccount.update({
      where: { id: accountId },
      data: {
        ...fields,
        ...(currencies ?? {}),
        ...(credentials
          ? {
              ...sealCredentials(credentials, accountId),
              credentialsFingerprint: credentialsFingerprint(credentials),
              credentialsSetAt: new Date(),
              credentialsNeeded: null,
            }
          : {}),
      },
      select: ACCOUNT_VIEW_SELECT,
    });
    return { before, after: toAccountView(row), credentialsChanged: Boolean(credentials) };
  };
  return tx ? run(tx) : db().$transaction(run);
}
