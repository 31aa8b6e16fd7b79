// The Prisma client (through @prisma/adapter-pg) and the transaction type that services accept.
import { PrismaPg } from "@prisma/adapter-pg";
import pg from "pg";
import { hotSqlOn, type HotSql } from "./db/hot-sql";
import { PrismaClient, Prisma } from "./generated/prisma/client";
import { config } from "./env";
import { observePool } from "./observability/metrics";
import { log } from "./observability/logger";

export { Prisma };
export type Db = PrismaClient;
/** A Prisma transaction client; services take `tx: Tx` so callers can compose them. */
export type Tx = Prisma.TransactionClient;

/** Raw SQL on a Prisma client or transaction, or on the driver (hotSql()): what a service that only runs statements takes. */
export interface SqlRunner {
  $queryRaw<T = unknown>(query: TemplateStringsArray | Prisma.Sql, ...values: unknown[]): PromiseLike<T>;
}

/**
 * The options of a transaction whose reads must agree with each other: Prisma reads a row and each
 * of its relations in statements of their own, each with a snapshot of its own under READ COMMITTED;
 * under REPEATABLE READ they share the first one (a payment's amounts and its operations, say).
 */
export const ONE_SNAPSHOT = { isolationLevel: "RepeatableRead" } as const;

const globalForPrisma = globalThis as unknown as { __cpsPrisma?: PrismaClient; __cpsHotSql?: HotSql; __cpsPrismaUrl?: string };

export function createPrismaClient(connectionString: string, poolSize = config().DATABASE_POOL_SIZE): PrismaClient {
  return createClients(connectionString, poolSize).prisma;
}

/** A Prisma client and the hot paths' SQL on the one pg pool they share (lib/db/hot-sql.ts). */
function createClients(connectionString: string, poolSize: number): { prisma: PrismaClient; hot: HotSql } {
  // A bounded wait for a connection: past it the query fails ("timeout exceeded when trying to
  // connect"), which lib/errors.ts classifies as overload (503), instead of queueing without end.
  // Idle connections are kept for DATABASE_POOL_IDLE_TIMEOUT_MS (decision 0224).
  const pool = new pg.Pool({
    connectionString,
    max: poolSize,
    connectionTimeoutMillis: config().DATABASE_POOL_TIMEOUT_MS,
    idleTimeoutMillis: config().DATABASE_POOL_IDLE_TIMEOUT_MS,
  });
  // An idle connection the server ended (a restart, a fail-over, pg_terminate_backend) is an
  // "error" event of the pool, which removes it; unheard, Node throws it and the process ends.
  // The next query opens a new connection.
  pool.on("error", (error) => {
    log("db").warn({ event: "db.idle_connection_lost" }, `an idle database connection was closed by the server: ${error.message}`);
  });
  // Prisma ends the pool when it disconnects, as it ends one it made itself.
  const adapter = new PrismaPg(pool, { disposeExternalPool: true });
  // Handed to /metrics (cps_db_pool_connections) once Prisma connects, as before.
  const connect = adapter.connect.bind(adapter);
  adapter.connect = async () => {
    const connected = await connect();
    observePool(connected.underlyingDriver());
    return connected;
  };
  return { prisma: new PrismaClient({ adapter }), hot: hotSqlOn(pool, { preparedStatements: config().DATABASE_PREPARED_STATEMENTS }) };
}

export function databaseUrl(): string {
  const url = config().DATABASE_URL;
  if (!url) {
    throw new Error(
      "DATABASE_URL is not set. `npm start` sets it to the embedded database; scripts call ensureDatabaseUrl() from lib/db/embedded-postgres.ts first.",
    );
  }
  return url;
}

/** The process-wide client, created on first use (kept on globalThis across Next dev reloads). */
export function db(): PrismaClient {
  const url = databaseUrl();
  if (!globalForPrisma.__cpsPrisma || globalForPrisma.__cpsPrismaUrl !== url) {
    const clients = createClients(url, config().DATABASE_POOL_SIZE);
    globalForPrisma.__cpsPrisma = clients.prisma;
    globalForPrisma.__cpsHotSql = clients.hot;
    globalForPrisma.__cpsPrismaUrl = url;
  }
  return globalForPrisma.__cpsPrisma;
}

/**
 * Raw SQL of the hot paths on the driver, on db()'s pool (decision 0214): the same statements and
 * values as `db().$queryRaw`, without Prisma's runtime per statement. Not for a statement inside a
 * Prisma transaction (that one runs on the transaction's connection: `tx.$queryRaw`).
 */
export function hotSql(): HotSql {
  db();
  return globalForPrisma.__cpsHotSql!;
}

export async function disconnectDb(): Promise<void> {
  await globalForPrisma.__cpsPrisma?.$disconnect();
  globalForPrisma.__cpsPrisma = undefined;
  globalForPrisma.__cpsHotSql = undefined;
  globalForPrisma.__cpsPrismaUrl = undefined;
}
