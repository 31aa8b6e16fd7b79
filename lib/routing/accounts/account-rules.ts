// The rules every save of an acquirer account checks (lib/routing/accounts/create-*.ts and
// update-*.ts): input is validated whole before anything is written, so a bad MCC, descriptor,
// currency, BIN or credentials of the wrong shape is a field error (a ZodError whose path names the
// field) and nothing is saved. At most one enabled account per processor and mode takes a given
// currency, so the routing never has to guess between two merchant accounts; that check runs under
// the merchant's row lock.
import { z } from "zod";
import type { Tx } from "../../db";
import { parseCredentials, type ProcessorCredentials } from "../../acquirers/credentials";
import type { AcquirerName } from "../../acquirers/names";
import type { Mode } from "../../mode";
import { acquirerMerchantIdProblem, currenciesProblem, currenciesSchema, describeCurrencies, descriptorProblem } from "./account-input";

export class AcquirerAccountNotFoundError extends Error {
  constructor() {
    super("acquirer account not found");
    this.name = "AcquirerAccountNotFoundError";
  }
}

export function fieldError(field: string, message: string): z.ZodError {
  return new z.ZodError([{ code: "custom", path: [field], message, input: undefined }]);
}

/** The processor's (platform's) credentials, their issues named `credential.<key>` (the form's and the CLI's field names). */
export function parseCredentialInput(processor: AcquirerName, input: unknown, platform?: string | null): ProcessorCredentials {
  try {
    return parseCredentials(processor, input, platform);
  } catch (error) {
    if (!(error instanceof z.ZodError)) throw error;
    throw new z.ZodError(
      error.issues.map((issue) => ({
        ...issue,
        path: issue.path.length > 0 ? [`credential.${String(issue.path[0])}`] : ["credentials"],
      })) as z.core.$ZodIssue[],
    );
  }
}

function processorRuleIssues(
  processor: AcquirerName,
  fields: { descriptor?: string; acquirerMerchantId?: string; currencies?: unknown },
  platform: string | null | undefined,
): z.core.$ZodIssue[] {
  const issues: z.core.$ZodIssue[] = [];
  const currencies = fields.currencies === undefined ? undefined : currenciesSchema.safeParse(fields.currencies);
  const currencyProblem = currencies?.success ? currenciesProblem(processor, currencies.data, platform) : undefined;
  if (currencyProblem) issues.push({ code: "custom", path: ["currencies"], message: currencyProblem, input: fields.currencies });
  const descriptor = fields.descriptor === undefined ? undefined : descriptorProblem(processor, fields.descriptor, platform);
  if (descriptor) issues.push({ code: "custom", path: ["descriptor"], message: descriptor, input: fields.descriptor });
  const merchantId =
    fields.acquirerMerchantId === undefined ? undefined : acquirerMerchantIdProblem(processor, fields.acquirerMerchantId, platform);
  if (merchantId) issues.push({ code: "custom", path: ["acquirerMerchantId"], message: merchantId, input: fields.acquirerMerchantId });
  return issues;
}

/**
 * Validates an account's input whole: the fields' schema, the processor's own rules (descriptor,
 * acquirer merchant id) and its credentials' schema, every problem in one ZodError so that a form
 * shows them all at once. `processor` undefined: only the schema (an unknown processor is its issue).
 */
export function validateAccountInput<TSchema extends z.ZodType>(
  schema: TSchema,
  processor: AcquirerName | undefined,
  input: unknown,
  { requireCredentials, platform }: { requireCredentials: boolean; /** The account's platform (decision 0193); null: the processor's first. */ platform?: string | null },
): { fields: z.infer<TSchema>; credentials?: ProcessorCredentials } {
  const record = (input && typeof input === "object" ? input : {}) as Record<string, unknown>;
  const text = (value: unknown) => (typeof value === "string" ? value.trim() : undefined);
  const issues: z.core.$ZodIssue[] = [];
  const parsed = schema.safeParse(input);
  if (!parsed.success) issues.push(...parsed.error.issues);
  let credentials: ProcessorCredentials | undefined;
  if (processor) {
    issues.push(
      ...processorRuleIssues(processor, {
        descriptor: text(record.descriptor),
        acquirerMerchantId: text(record.acquirerMerchantId),
        currencies: record.currencies,
      }, platform),
    );
    if (requireCredentials || record.credentials !== undefined) {
      try {
        credentials = parseCredentialInput(processor, record.credentials, platform);
      } catch (error) {
        if (!(error instanceof z.ZodError)) throw error;
        issues.push(...error.issues);
      }
    }
  }
  if (issues.length > 0 || !parsed.success) throw new z.ZodError(issues);
  return { fields: parsed.data, credentials };
}

/** Refuses a second enabled account of the same mode at the same processor for a currency one already takes. */
export async function checkCurrencyOverlap(
  tx: Tx,
  account: {
    id?: string;
    merchantId: string;
    mode: Mode;
    processor: AcquirerName;
    enabled: boolean;
    anyCurrency: boolean;
    currencies: string[];
  },
): Promise<void> {
  if (!account.enabled) return;
  await tx.$queryRaw`SELECT "id" FROM "Merchant" WHERE "id" = ${account.merchantId} FOR UPDATE`;
  const others = await tx.acquirerAccount.findMany({
    where: {
      merchantId: account.merchantId,
      mode: account.mode,
      processor: account.processor,
      enabled: true,
      ...(account.id ? { id: { not: account.id } } : {}),
    },
    select: { name: true, anyCurrency: true, currencies: true },
  });
  for (const other of others) {
    const shared =
      account.anyCurrency || other.anyCurrency ? "" : account.currencies.filter((code) => other.currencies.includes(code)).join(", ");
    if (account.anyCurrency || other.anyCurrency || shared) {
      throw fieldError(
        "currencies",
        `the enabled ${account.mode} ${account.processor} account “${other.name}” already takes ${shared || describeCurrencies(other)}: one enabled account per processor, mode and currency (disable it or narrow its currencies first)`,
      );
    }
  }
}
