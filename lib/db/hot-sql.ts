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
import { createHash } from "node:crypto";
import pg from "pg";
import { Prisma } from "../generated/prisma/client";
import { sqlStateOf } from "../errors";

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

/**
 * Named prepared statements for the hot paths (decision 0216). A statement sent unnamed is parsed,
 * analysed and planned by PostgreSQL on every call: a profile of PostgreSQL at 100 captures a second
 * found half its CPU there, and PostgreSQL the largest user of the machine's cores (docs/performance.md).
 * Named, each connection parses it once and, after its first executions, keeps a generic plan.
 * A name per distinct text (its hash), for at most MAX_NAMED texts a process (a statement whose
 * text varies without bound, such as a batch of N rows, would otherwise leave one per N on every
 * connection); past that they go unnamed. Not inside a transaction: an error there (below) cannot
 * be retried without the caller.
 */
const MAX_NAMED = 64;
/**
 * More values than this is a batch whose text grows with its size (the request log's rows): left
 * unnamed, so that the sizes of one burst cannot take the names the steady statements need.
 */
const MAX_NAMED_VALUES = 40;

export interface PreparedStatements {
  /** Settles once it is known whether this database takes named statements. */
  ready: Promise<void>;
  /** Whether this database takes named statements: false for the embedded database (PGlite). */
  enabled(): boolean;
  name(text: string): string | undefined;
  /** Forgets a text's name after its statement went stale (`code`): its next call prepares it anew under another one. */
  forget(text: string, code: string): void;
}

export function preparedStatements(pool: pg.Pool, setting: "on" | "off"): PreparedStatements {
  const names = new Map<string, string>();
  let generation = 0;
  let supported: boolean | undefined = setting === "off" ? false : undefined;
  let lost = 0;
  // PGlite is one session multiplexed between the pool's connections (pglite-socket): a name
  // prepared by one connection exists for all, and a second Parse of it fails. Asked once; until
  // the answer, statements go unnamed.
  const ready =
    supported === false
      ? Promise.resolve()
      : pool
          .query<{ version: string }>("SELECT version() AS version")
          .then(({ rows }) => {
            supported = !/PGlite/i.test(rows[0]?.version ?? "");
          })
          .catch(() => undefined);
  return {
    ready,
    enabled: () => supported === true,
    name(text) {
      let name = names.get(text);
      if (name === undefined && names.size < MAX_NAMED) {
        name = `cps_${createHash("sha1").update(text).digest("hex").slice(0, 24)}_${generation}`;
        names.set(text, name);
      }
      return name;
    },
    forget(text, code) {
      names.delete(text);
      generation++;
      // Lost again and again (26000): something between us and PostgreSQL does not keep them (a
      // pooler in transaction mode). They are off for this process from then on.
      if (code === "26000" && ++lost >= 3) supported = false;
    },
  };
}

/**
 * What a named statement's error says when the statement itself went stale, not the query: a
 * migration changed what it returns ("cached plan must not change result type", 0A000), or the
 * session lost it (26000, a connection pooler between us and PostgreSQL). Prepared again, it runs.
 */
const STALE_STATEMENT = new Set(["0A000", "26000"]);

async function run<T>(runner: Runner, query: Prisma.Sql, prepared?: PreparedStatements): Promise<pg.QueryResult<T & pg.QueryResultRow>> {
  const values = query.values.map(parameter);
  const name = prepared?.enabled() && values.length <= MAX_NAMED_VALUES ? prepared.name(query.text) : undefined;
  if (name === undefined) return runner.query<T & pg.QueryResultRow>({ text: query.text, values, types: TYPES });
  try {
    return await runner.query<T & pg.QueryResultRow>({ name, text: query.text, values, types: TYPES });
  } catch (error) {
    const code = sqlStateOf(error);
    if (code === undefined || !STALE_STATEMENT.has(code)) throw error;
    // Under a new name every connection prepares it again; the stale one stays unused.
    prepared!.forget(query.text, code);
    return runner.query<T & pg.QueryResultRow>({ name: prepared!.enabled() ? prepared!.name(query.text) : undefined, text: query.text, values, types: TYPES });
  }
}

/** What `db()` offers for raw SQL (and the executor's database: raw SQL and transactions), on pg. */
export interface HotSql {
  $queryRaw<T = unknown>(query: SqlArgument, ...values: unknown[]): Promise<T>;
  $executeRaw(query: SqlArgument, ...values: unknown[]): Promise<number>;
  $queryRawUnsafe<T = unknown>(query: string, ...values: unknown[]): Promise<T>;
  $transaction<R>(fn: (tx: HotSql) => Promise<R>, options?: { maxWait?: number; timeout?: number }): Promise<R>;
}

export function hotSqlOn(pool: pg.Pool, options: { preparedStatements?: "on" | "off" } = {}): HotSql {
  const prepared = preparedStatements(pool, options.preparedStatements ?? "on");
  const on = (runner: Runner, inTransaction: boolean): HotSql => ({
    async $queryRaw<T>(query: SqlArgument, ...values: unknown[]) {
      return (await run<T>(runner, asSql(query, values), inTransaction ? undefined : prepared)).rows as T;
    },
    async $executeRaw(query: SqlArgument, ...values: unknown[]) {
      return (await run(runner, asSql(query, values), inTransaction ? undefined : prepared)).rowCount ?? 0;
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
