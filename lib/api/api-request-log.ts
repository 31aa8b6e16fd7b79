// The ApiRequest trace rows (responseid, TraceApi, outcome) are written in batches: one INSERT per
// request would double the database work of the cheapest endpoints. Rows wait at most
// FLUSH_INTERVAL_MS; a crash loses at most that much tracing, never a payment.
// The batch is one raw INSERT of arrays (unnest) rather than Prisma's createMany: createMany cost
// about 0.3 ms of CPU per row (query building and argument validation per row), the largest single
// piece of initdynamic's own cost in the web process (docs/performance.md, "Web-process CPU per
// request"); the raw statement costs a small fraction of that and is the same one statement.
import { db } from "../db";
import { log as logger } from "../observability/logger";
import type { Mode } from "../mode";

export interface ApiRequestRow {
  id: string;
  merchantId: string | null;
  /** The key's mode; null with merchantId (no key identified the request: such rows are not stored). */
  mode: Mode | null;
  method: string;
  path: string;
  traceApi: string | null;
  statusCode: number;
  errorCode: string | null;
  durationMs: number;
  createdAt: Date;
  /** What the Developers page shows of the request (lib/api/mask-logged-body.ts masks the bodies). */
  errorDescription: string | null;
  requestBody: string | null;
  responseBody: string | null;
  apiKeyId: string | null;
  idempotencyKey: string | null;
  idempotentReplay: boolean;
}

const FLUSH_INTERVAL_MS = 50;
const MAX_BATCH = 500;

const state = globalThis as unknown as {
  __cpsApiRequestLog?: { pending: ApiRequestRow[]; timer?: NodeJS.Timeout; flushing?: Promise<void> };
};

function log() {
  state.__cpsApiRequestLog ??= { pending: [] };
  return state.__cpsApiRequestLog;
}

export function recordApiRequest(row: ApiRequestRow): void {
  const current = log();
  current.pending.push(row);
  if (current.pending.length >= MAX_BATCH) void flushApiRequestLog();
  else current.timer ??= setTimeout(() => void flushApiRequestLog(), FLUSH_INTERVAL_MS);
}

/** Writes every buffered row (tests call it before reading ApiRequest; the buffer also flushes itself). */
export async function flushApiRequestLog(): Promise<void> {
  const current = log();
  if (current.timer) clearTimeout(current.timer);
  current.timer = undefined;
  await current.flushing;
  const rows = current.pending.splice(0);
  if (rows.length === 0) return;
  current.flushing = insertRows(rows)
    .then(() => undefined)
    .catch((error: unknown) => logger("merchant-api").warn(`could not record ${rows.length} request trace(s): ${String(error)}`));
  await current.flushing;
}

/** One INSERT for the batch; a row whose id is already stored is skipped (a retried flush). */
function insertRows(rows: ApiRequestRow[]): Promise<number> {
  const column = <K extends keyof ApiRequestRow>(key: K) => rows.map((row) => row[key]);
  // createdAt as ISO text into timestamp(3): the column holds UTC wall time, as Prisma writes it.
  return db().$executeRaw`
    INSERT INTO "ApiRequest" ("id", "merchantId", "mode", "method", "path", "traceApi", "statusCode", "errorCode", "durationMs", "createdAt",
      "errorDescription", "requestBody", "responseBody", "apiKeyId", "idempotencyKey", "idempotentReplay")
    SELECT * FROM unnest(${column("id")}::text[], ${column("merchantId")}::text[], ${column("mode")}::"Mode"[], ${column("method")}::text[], ${column("path")}::text[],
      ${column("traceApi")}::text[], ${column("statusCode")}::int[], ${column("errorCode")}::text[], ${column("durationMs")}::int[],
      ${rows.map((row) => row.createdAt.toISOString())}::timestamp(3)[],
      ${column("errorDescription")}::text[], ${column("requestBody")}::text[], ${column("responseBody")}::text[], ${column("apiKeyId")}::text[],
      ${column("idempotencyKey")}::text[], ${column("idempotentReplay")}::boolean[])
    ON CONFLICT ("id") DO NOTHING`;
}
