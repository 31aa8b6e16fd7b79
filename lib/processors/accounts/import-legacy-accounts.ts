// The upgrade to per-merchant acquirer accounts (`accounts import-env`, docs/operations.md): before,
// every merchant's payments went to one process-wide account per processor (FINARO_*, CLEARHAUS_*;
// the BAMBORA_* Online Checkout credentials of those versions are not importable: lib/env.ts,
// RETIRED_ACQUIRER_VARIABLES). This gives every merchant that has no account at a processor one built from those
// variables, taking every currency as before, and records it on the payments and operations the
// merchant already made there, so their captures, refunds, voids and look-ups keep working. SQL
// cannot read the environment, so the migration that adds the accounts names this command instead.
// Running it again changes nothing: merchants that have an account at a processor are skipped.
import { db } from "../../db";
import { legacyAcquirerCredentials, type LegacyAcquirerCredentials } from "../../env";
import { parseCredentials } from "../credentials";
import { bindConnector } from "../registry";
import type { ProcessorName } from "../types";
import { createAcquirerAccount } from "./create-acquirer-account";

/** The processors whose earlier process-wide credentials can become accounts. */
const LEGACY_PROCESSORS = ["finaro", "clearhaus"] as const;
type LegacyProcessor = (typeof LEGACY_PROCESSORS)[number];

export interface ImportLegacyAccountsOptions {
  /** The acquirer's view of the one shared account: the same for every merchant it served. */
  fields: {
    mcc: string;
    merchantName: string;
    country: string;
    descriptor: string;
    mode: "test" | "live";
    acquirerBins?: Record<string, string>;
    /** Clearhaus' merchant_id; asked from Clearhaus (GET /account) when absent. */
    clearhausMerchantId?: string;
  };
  /** Tests: the variables' values (default: this process's environment). */
  legacy?: LegacyAcquirerCredentials;
}

export interface ImportedProcessor {
  processor: ProcessorName;
  created: { merchantId: string; accountId: string; payments: number; operations: number }[];
  /** Merchants that already had an account there (their older payments keep whatever they have). */
  skipped: string[];
}

/** The acquirer merchant id the schemes know the shared account by. */
async function acquirerMerchantId(
  processor: LegacyProcessor,
  credentials: Record<string, string>,
  options: ImportLegacyAccountsOptions,
): Promise<string> {
  switch (processor) {
    case "finaro":
      return credentials.merchantId!;
    case "clearhaus": {
      if (options.fields.clearhausMerchantId) return options.fields.clearhausMerchantId;
      const parsed = parseCredentials("clearhaus", credentials);
      const check = await bindConnector({ id: "legacy-import", mode: options.fields.mode, ...parsed }).checkConnection();
      const merchantId = check.details?.merchant_id;
      if (!check.ok || !merchantId)
        throw new Error(`Clearhaus did not give its merchant_id (${check.message}): pass --clearhaus-merchant-id`);
      return merchantId;
    }
  }
}

export async function importLegacyAccounts(options: ImportLegacyAccountsOptions): Promise<ImportedProcessor[]> {
  const legacy = options.legacy ?? legacyAcquirerCredentials();
  const merchants = await db().merchant.findMany({ select: { id: true }, orderBy: { createdAt: "asc" } });
  const results: ImportedProcessor[] = [];
  for (const processor of LEGACY_PROCESSORS) {
    const credentials = legacy[processor] as Record<string, string> | undefined;
    if (!credentials) continue;
    // Validated once, before any merchant gets an account: a bad value stops the import whole.
    parseCredentials(processor, credentials);
    const merchantIdAtAcquirer = await acquirerMerchantId(processor, credentials, options);
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
