// The upgrade to per-merchant acquirer accounts (`accounts import-env`, docs/operations.md): before,
// every merchant's payments went to one process-wide account per processor (the variables each
// module names as its `environment.legacyCredentials`; retired ones are not importable:
// lib/acquirers/environment.ts). This gives every merchant that has no account at a processor one
// built from those variables, taking every currency as before, and records it on the payments and
// operations the merchant already made there, so their captures, refunds, voids and look-ups keep
// working. SQL cannot read the environment, so the migration that adds the accounts names this
// command instead. Running it again changes nothing: merchants that have an account at a processor are skipped.
import { db } from "../../db";
import { ACQUIRERS } from "../../acquirers";
import { parseCredentials } from "../../acquirers/credentials";
import { legacyAcquirerCredentials, type LegacyAcquirerCredentials } from "../../acquirers/environment";
import { ACQUIRER_NAMES, type AcquirerName } from "../../acquirers/names";
import { bindConnector } from "../../acquirers/registry";
import { createAcquirerAccount } from "./create-acquirer-account";

export interface ImportLegacyAccountsOptions {
  /** The acquirer's view of the one shared account: the same for every merchant it served. */
  fields: {
    mcc: string;
    merchantName: string;
    country: string;
    descriptor: string;
    mode: "test" | "live";
    acquirerBins?: Record<string, string>;
    /** The merchant id the acquirer knows the shared account by, where its module asks for it (`--<name>-merchant-id`). */
    acquirerMerchantIds?: Partial<Record<AcquirerName, string>>;
  };
  /** Tests: the variables' values (default: this process's environment). */
  legacy?: LegacyAcquirerCredentials;
}

export interface ImportedProcessor {
  processor: AcquirerName;
  created: { merchantId: string; accountId: string; payments: number; operations: number }[];
  /** Merchants that already had an account there (their older payments keep whatever they have). */
  skipped: string[];
}

export async function importLegacyAccounts(options: ImportLegacyAccountsOptions): Promise<ImportedProcessor[]> {
  const legacy = options.legacy ?? legacyAcquirerCredentials();
  const merchants = await db().merchant.findMany({ select: { id: true }, orderBy: { createdAt: "asc" } });
  const results: ImportedProcessor[] = [];
  for (const processor of ACQUIRER_NAMES) {
    const credentials = legacy[processor];
    const legacyImport = ACQUIRERS[processor].legacyImport;
    if (!credentials || !legacyImport) continue;
    // Validated once, before any merchant gets an account: a bad value stops the import whole.
    const parsed = parseCredentials(processor, credentials);
    // The acquirer merchant id the schemes know the shared account by.
    const merchantIdAtAcquirer = await legacyImport.acquirerMerchantId(parsed.credentials as never, options.fields.acquirerMerchantIds?.[processor], () =>
      bindConnector({ id: "legacy-import", mode: options.fields.mode, ...parsed }).checkConnection(),
    );
    const result: ImportedProcessor = { processor, created: [], skipped: [] };
    for (const merchant of merchants) {
      const outcome = await db().$transaction(async (tx) => {
        if (await tx.acquirerAccount.findFirst({ where: { merchantId: merchant.id, processor }, select: { id: true } })) return undefined;
        const account = await createAcquirerAccount({
          merchantId: merchant.id,
          tx,
          input: {
            processor,
            name: `${processor} (imported)`,
            acquirerMerchantId: merchantIdAtAcquirer,
            acquirerBins: options.fields.acquirerBins ?? {},
            mcc: options.fields.mcc,
            merchantName: options.fields.merchantName,
            country: options.fields.country,
            descriptor: options.fields.descriptor,
            currencies: "any",
            mode: options.fields.mode,
            credentials,
          },
        });
        const payments = await tx.$executeRaw`
          UPDATE "Payment" SET "acquirerAccountId" = ${account.id}
          WHERE "merchantId" = ${merchant.id} AND "processor" = ${processor}::"Processor" AND "acquirerAccountId" IS NULL`;
        const operations = await tx.$executeRaw`
          UPDATE "Operation" AS o SET "acquirerAccountId" = ${account.id}
          FROM "Payment" AS p
          WHERE o."paymentId" = p."id" AND p."merchantId" = ${merchant.id} AND o."acquirerAccountId" IS NULL
            -- Attempts name their processor; follow-ups requested through the API name none and go to the payment's.
            AND (o."processor" = ${processor}::"Processor" OR (o."processor" IS NULL AND p."processor" = ${processor}::"Processor"))`;
        return { merchantId: merchant.id, accountId: account.id, payments, operations };
      });
      if (outcome) result.created.push(outcome);
      else result.skipped.push(merchant.id);
    }
    results.push(result);
  }
  return results;
}
