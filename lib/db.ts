// The Prisma client (through @prisma/adapter-pg) and the transaction type that services accept.
import { PrismaPg } from "@prisma/adapter-pg";
import { PrismaClient, Prisma } from "./generated/prisma/client";
import { config } from "./env";
import { observePool } from "./observability/metrics";

export { Prisma };
export type Db = PrismaClient;
/** A Prisma transaction client; services take `tx: Tx` so callers can compose them. */
export type Tx = Prisma.TransactionClient;

/**
 * The options of a transaction whose reads must agree with each other: Prisma reads a row and each
 * of its relations in statements of their own, each with a snapshot of its own under READ COMMITTED;
 * under REPEATABLE READ they share the first one (a payment's amounts and its operations, say).
 */
export const ONE_SNAPSHOT = { isolationLevel: "RepeatableRead" } as const;

const globalForPrisma = globalThis as unknown as { __cpsPrisma?: PrismaClient; __cpsPrismaUrl?: string };

export function createPrismaClient(connectionString: string, poolSize = config().DATABASE_POOL_SIZE): PrismaClient {
  // A bounded wait for a connection: past it the query fails ("timeout exceeded when trying to
  // connect"), which lib/errors.ts classifies as overload (503), instead of queueing without end.
  const adapter = new PrismaPg({ connectionString, max: poolSize, connectionTimeoutMillis: config().DATABASE_POOL_TIMEOUT_MS });
  // The adapter makes its pg Pool on connect: hand it to /metrics (cps_db_pool_connections).
  const connect = adapter.connect.bind(adapter);
  adapter.connect = async () => {
    const connected = await connect();
    observePool(connected.underlyingDriver());
    return connected;
  };
  return new PrismaClient({ adapter });
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
    globalForPrisma.__cpsPrisma = createPrismaClient(url);
    globalForPrisma.__cpsPrismaUrl = url;
  }
  return globalForPrisma.__cpsPrisma;
}

export async function disconnectDb(): Promise<void> {
  await globalForPrisma.__cpsPrisma?.$disconnect();
  globalForPrisma.__cpsPrisma = undefined;
  globalForPrisma.__cpsPrismaUrl = undefined;
}
