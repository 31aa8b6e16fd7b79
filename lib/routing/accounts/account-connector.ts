// The connector for one acquirer account: its row read, its credentials opened (and validated by
// their processor's schema), bound to every call. Follow-ups, look-ups and reconciliation ask for the
// account that authorized, whatever has happened to it since: a disabled or edited account still
// serves the payments it already holds.
import { z } from "zod";
import { db, Prisma, type Tx } from "../../db";
import { bindConnector, type GetConnectorOptions } from "../../acquirers/registry";
import type { ProcessorConnector } from "../../acquirers/contract";
import type { AcquirerName } from "../../acquirers/names";
import { openCredentials } from "./seal-credentials";
import type { Mode } from "../../mode";

export const SEALED_ACCOUNT_SELECT = {
  id: true,
  processor: true,
  platform: true,
  mode: true,
  credentialsSealed: true,
  credentialsKeyId: true,
  credentialsNeeded: true,
} as const;

/**
 * The same columns as one JSON object of the account row `a`, for raw statements that read the
 * account with something else (lib/routing/follow-up.ts); NULL when there is no row.
 */
export const SEALED_ACCOUNT_JSON_OF_A = Prisma.raw(
  `CASE WHEN a."id" IS NULL THEN NULL ELSE json_build_object(${Object.keys(SEALED_ACCOUNT_SELECT)
    .map((column) => `'${column}', a."${column}"`)
    .join(", ")}) END`,
);

export interface SealedAccountRow {
  id: string;
  processor: AcquirerName;
  /** Which of the processor's APIs (decision 0193); null: its first. */
  platform: string | null;
  /** Where the calls go: a live account's to the acquirer's production endpoint, never a sandbox. */
  mode: Mode;
  credentialsSealed: string;
  credentialsKeyId: string;
  /** Set when the stored credentials are of an API the connector no longer speaks (bambora before issue 26). */
  credentialsNeeded: string | null;
}

export class AcquirerAccountMissingError extends Error {
  constructor(detail: string) {
    super(detail);
    this.name = "AcquirerAccountMissingError";
  }
}

/** The refusal for an account id with no row. */
export function accountDoesNotExist(accountId: string): AcquirerAccountMissingError {
  return new AcquirerAccountMissingError(`acquirer account ${accountId} does not exist`);
}

/**
 * The bound connector of an account row already read (with SEALED_ACCOUNT_SELECT). An account whose
 * credentials must be entered again cannot call its acquirer: AcquirerAccountMissingError, which
 * every caller treats as "nothing was sent".
 */
export function accountConnector(row: SealedAccountRow, options: GetConnectorOptions = {}): ProcessorConnector {
  if (row.credentialsNeeded) throw new AcquirerAccountMissingError(`acquirer account ${row.id}: ${row.credentialsNeeded}`);
  let opened;
  try {
    opened = openCredentials(row, row.id);
  } catch (error) {
    if (!(error instanceof z.ZodError)) throw error;
    throw new AcquirerAccountMissingError(
      `acquirer account ${row.id}: its stored ${row.processor} credentials are not of the kind the connector takes now; enter them again`,
    );
  }
  if (opened.processor !== row.processor || (opened.platform ?? null) !== row.platform)
    throw new Error(
      `acquirer account ${row.id}: sealed credentials are for ${opened.processor}${opened.platform ? ` (${opened.platform})` : ""}, not ${row.processor}${row.platform ? ` (${row.platform})` : ""}`,
    );
  return bindConnector({ id: row.id, mode: row.mode, ...opened }, options);
}

export interface AccountForCall {
  connector: ProcessorConnector;
  /** The account's statement descriptor: sent where a payment names none of its own. */
  descriptor: string;
}

/** The bound connector of the account `accountId` (enabled or not), with its descriptor. */
export async function getAccountForCall({
  accountId,
  timeoutMs,
  tx,
}: {
  accountId: string;
  timeoutMs?: number;
  tx?: Tx;
}): Promise<AccountForCall> {
  const row = await (tx ?? db()).acquirerAccount.findUnique({
    where: { id: accountId },
    select: { ...SEALED_ACCOUNT_SELECT, descriptor: true },
  });
  if (!row) throw accountDoesNotExist(accountId);
  return { connector: accountConnector(row, { timeoutMs }), descriptor: row.descriptor };
}

/** The bound connector of the account `accountId` (enabled or not). */
export async function getAccountConnector(options: { accountId: string; timeoutMs?: number; tx?: Tx }): Promise<ProcessorConnector> {
  return (await getAccountForCall(options)).connector;
}

/**
 * The account an operation went out under: its own record, else its payment's (operations written
 * before the operation carried one). Undefined when neither has one (a payment from before accounts
 * existed whose merchant was never given accounts by `accounts import-env`).
 */
export async function operationAccountId(operationId: string): Promise<string | undefined> {
  const operation = await db().operation.findUnique({
    where: { id: operationId },
    select: { acquirerAccountId: true, payment: { select: { acquirerAccountId: true } } },
  });
  return operation?.acquirerAccountId ?? operation?.payment.acquirerAccountId ?? undefined;
}
