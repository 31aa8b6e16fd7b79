// The database driver itself for the statements of the hot paths (a follow-up's reservation in the
// web, the follow-up job and its notification in the worker, the embedded executor's bookkeeping):
// the same SQL as `db().$queryRaw`, on the same pg pool Prisma's adapter uses, without Prisma's
// runtime around each statement. In a profile of the background bench Prisma's runtime was 13% of
// the worker's busy CPU per capture, about 1 ms over its 5 to 6 statements (decision 0214,
// docs/performance.md). Everything else keeps Prisma (its model API, migrations, types).
// Values go in and come out as `$queryRaw` gives them, so a statement can move between the two
// without its caller noticing: parameters as @prisma/adapter-pg sends them (a Date as UTC
// "YYYY-MM-DD HH:MM:SS.mmm", a bigint as its digits), results as Prisma maps them (int8 as
// bigint, timestamp without time zone read as UTC, numeric as Prisma.Decimal, json parsed).
import pg from "pg";
import { Prisma } from "../generated/prisma/client";

// pg is CommonJS: its default export, as lib/db.ts imports it, works under every loader we run.
const pgTypes = pg.types;

const OID = { int8: 20, int8Array: 1016, numeric: 1700, numericArray: 1231, timestamp: 1114, timestampArray: 1115, date: 1082, dateArray: 1182 };

function utcDate(text: string): Date {
  // "2026-11-29 23:30:00.123" (and years past 9999 or BC never occur in this schema).
  return new Date(`${text.replace(" ", "T")}Z`);
}

const arrayOf = (parse: (text: string) => unknown) => (text: string) => (pgTypes.arrayParser as unknown as { create(text: string, parse: (t: string) => unknown): { parse(): unknown[] } }).create(text, parse).parse();

const parsers: Record<number, (text: string) => unknown> = {
  [OID.int8]: (text) => BigInt(text),
  [OID.int8Array]: arrayOf((text) => BigInt(text)),
  [OID.numeric]: (text) => new Prisma.Decimal(text),
  [OID.numericArray]: arrayOf((text) => new Prisma.Decimal(text)),
  [OID.timestamp]: utcDate,
  [OID.timestampArray]: arrayOf(utcDate),
  [OID.date]: (text) => new Date(`${text}T00:00:00Z`),
  [OID.dateArray]: arrayOf((text) => new Date(`${text}T00:00:00Z`)),
};

const TYPES = {
  getTypeParser(oid: number, format?: "text" | "binary") {
    return (format !== "binary" && parsers[oid]) || pgTypes.getTypeParser(oid, format);
  },
} as pg.CustomTypesConfig;

function pad(n: number, width = 2): string {
  return String(n).padStart(width, "0");
}

/** A Date as @prisma/adapter-pg formats it: UTC, no zone, milliseconds when there are any. */
function utcText(date: Date): string {
  const ms = date.getUTCMilliseconds();
  return `${pad(date.getUTCFullYear(), 4)}-${pad(date.getUTCMonth() + 1)}-${pad(date.getUTCDate())} ${pad(date.getUTCHours())}:${pad(date.getUTCMinutes())}:${pad(date.getUTCSeconds())}${ms ? `.${pad(ms, 3)}` : ""}`;
}

function parameter(value: unknown): unknown {
  if (value instanceof Date) return utcText(value);
  if (typeof value === "bigint") return value.toString();
  if (Array.isArray(value)) return value.map(parameter);
  if (value instanceof Prisma.Decimal) return value.toString();
  return value;
}

type Runner = pg.Pool | pg.PoolClient;

/** A Prisma.Sql, or a tagged template's strings and values (`hot.$queryRaw\`...\``), as $queryRaw takes them. */
type SqlArgument = TemplateStringsArray | Prisma.Sql;

function asSql(query: SqlArgument, values: unknown[]): Prisma.Sql {
  // Duck-typed: the executor package's `sql` tag and the app's Prisma.sql may be two copies of one class.
  return Array.isArray(query) ? Prisma.sql(query as TemplateStringsArray, ...values) : (query as Prisma.Sql);
}

async function run<T>(runner: Runner, query: Prisma.Sql): Promise<pg.QueryResult<T & pg.QueryResultRow>> {
  return runner.query<T & pg.QueryResultRow>({ text: query.text, values: query.values.map(parameter), types: TYPES });
}

/** What `db()` offers for raw SQL (and the executor's database: raw SQL and transactions), on pg. */
export interface HotSql {
  $queryRaw<T = unknown>(query: SqlArgument, ...values: unknown[]): Promise<T>;
  $executeRaw(query: SqlArgument, ...values: unknown[]): Promise<number>;
  $queryRawUnsafe<T = unknown>(query: string, ...values: unknown[]): Promise<T>;
  $transaction<R>(fn: (tx: HotSql) => Promise<R>, options?: { maxWait?: number; timeout?: number }): Promise<R>;
}

export function hotSqlOn(pool: pg.Pool): HotSql {
  const on = (runner: Runner, inTransaction: boolean): HotSql => ({
    async $queryRaw<T>(query: SqlArgument, ...values: unknown[]) {
      return (await run<T>(runner, asSql(query, values))).rows as T;
    },
    async $executeRaw(query: SqlArgument, ...values: unknown[]) {
      return (await run(runner, asSql(query, values))).rowCount ?? 0;
    },
    async $queryRawUnsafe<T>(text: string, ...values: unknown[]) {
      return (await runner.query({ text, values: values.map(parameter), types: TYPES })).rows as T;
    },
    async $transaction<R>(fn: (tx: HotSql) => Promise<R>) {
      if (inTransaction) return fn(on(runner, true));
      const client = await pool.connect();
      let broken = false;
      try {
        await client.query("BEGIN");
        const result = await fn(on(client, true));
        await client.query("COMMIT");
        return result;
      } catch (error) {
        await client.query("ROLLBACK").catch(() => {
          broken = true;
        });
        throw error;
      } finally {
        // A connection whose rollback failed is not given back to the pool.
        client.release(broken ? true : undefined);
      }
    },
  });
  return on(pool, false);
}
