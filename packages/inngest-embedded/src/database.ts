// What the executor needs of a database: raw SQL and interactive transactions, as a Prisma client
// (with @prisma/adapter-pg or any other adapter) offers them. The package owns its tables
// (../prisma/inngest.prisma) and reaches them only through SQL, so it works with any Prisma client
// generated from a schema that includes that file, and imports nothing of the app's.
import { empty, join, sqltag, type Sql } from "@prisma/client/runtime/client";

export { empty, join, sqltag as sql, type Sql };

/** Raw SQL, inside or outside a transaction. */
export interface QueryRunner {
  $queryRaw<T = unknown>(query: TemplateStringsArray | Sql, ...values: unknown[]): PromiseLike<T>;
  $executeRaw(query: TemplateStringsArray | Sql, ...values: unknown[]): PromiseLike<number>;
  $queryRawUnsafe<T = unknown>(query: string, ...values: unknown[]): PromiseLike<T>;
}

/** A Prisma client: raw SQL and interactive transactions. */
export interface ExecutorDatabase extends QueryRunner {
  $transaction<R>(fn: (tx: QueryRunner) => Promise<R>, options?: { maxWait?: number; timeout?: number }): Promise<R>;
}

/**
 * Interactive transactions wait for a connection longer than Prisma's 2 s default: on the
 * embedded database transactions run one at a time, and a busy service queues them.
 */
export const TRANSACTION_OPTIONS = { maxWait: 15_000, timeout: 30_000 };

/** A timestamp parameter compared with the TIMESTAMP(3) (UTC, no zone) columns Prisma writes. */
export function utc(date: Date): Sql {
  return sqltag`(${date.toISOString()}::timestamptz AT TIME ZONE 'UTC')`;
}

/** The run statuses and job kinds of ../prisma/inngest.prisma. */
export const RUN_STATUSES = ["queued", "running", "sleeping", "completed", "failed"] as const;
export type RunStatus = (typeof RUN_STATUSES)[number];
export type JobKind = "discovery" | "step" | "sleep";
