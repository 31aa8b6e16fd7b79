// Adds an acquirer account to a merchant (CLI `accounts add`, back office, upgrade import): the
// fields and credentials validated (account-rules.ts), the credentials sealed, nothing saved on error.
import { z } from "zod";
import { db, type Tx } from "../../db";
import { newId } from "../../ids";
import { ACQUIRER_NAMES, acquirerNameList } from "../../acquirers/names";
import { accountFieldsSchema } from "./account-input";
import { checkCurrencyOverlap, fieldError, validateAccountInput } from "./account-rules";
import { platformKeyOf, UnknownPlatformError } from "../../acquirers/platforms";
import { ACCOUNT_VIEW_SELECT, toAccountView, type AcquirerAccountView } from "./account-view";
import { credentialsFingerprint, sealCredentials } from "./seal-credentials";

const createInput = accountFieldsSchema.extend({
  processor: z.enum(ACQUIRER_NAMES, { error: `must be ${acquirerNameList()}` }),
  /** Which of the processor's APIs (decision 0193): its first when absent. */
  platform: z.string().optional(),
  credentials: z.unknown(),
});

export interface CreateAcquirerAccountOptions {
  merchantId: string;
  /** processor, the account fields (account-input.ts) and `credentials` (credentials.ts). */
  input: unknown;
  tx?: Tx;
}

export async function createAcquirerAccount({ merchantId, input, tx }: CreateAcquirerAccountOptions): Promise<AcquirerAccountView> {
  const named = z.object({ processor: z.enum(ACQUIRER_NAMES), platform: z.string().optional() }).safeParse(input);
  const processor_ = named.success ? named.data.processor : undefined;
  let platform: string | null = null;
  try {
    platform = processor_ ? platformKeyOf(processor_, named.success ? named.data.platform : undefined) : null;
  } catch (error) {
    if (error instanceof UnknownPlatformError) throw fieldError("platform", error.message);
    throw error;
  }
  const validated = validateAccountInput(createInput, processor_, input, { requireCredentials: true, platform });
  const { processor, platform: _typed, credentials: _raw, currencies, ...fields } = validated.fields;
  const credentials = validated.credentials!;
  const id = newId();
  const run = async (client: Tx) => {
    await checkCurrencyOverlap(client, { merchantId, mode: fields.mode, processor, enabled: fields.enabled, ...currencies });
    if (await client.acquirerAccount.findUnique({ where: { merchantId_name: { merchantId, name: fields.name } }, select: { id: true } })) {
      throw fieldError("name", "another acquirer account of this merchant has this name");
    }
    const row = await client.acquirerAccount.create({
      data: {
        id,
        merchantId,
        processor,
        platform,
        ...fields,
        ...currencies,
        ...sealCredentials(credentials, id),
        credentialsFingerprint: credentialsFingerprint(credentials),
        credentialsSetAt: new Date(),
      },
      select: ACCOUNT_VIEW_SELECT,
    });
    return toAccountView(row);
  };
  return tx ? run(tx) : db().$transaction(run);
}
