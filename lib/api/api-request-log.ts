// The ApiRequest trace rows (responseid, TraceApi, outcome) are written in batches: one INSERT per
// request would double the database work of the cheapest endpoints. Rows wait at most
// FLUSH_INTERVAL_MS; a crash loses at most that much tracing, never a payment. A batch holds every
// merchant's rows, so one row must never cost the others theirs (security review 4, M3): text is made
// storable when the row is recorded (a raw NUL byte in a body the merchant sent), and a batch that
// PostgreSQL refuses anyway is written again row by row, so only the row at fault is lost.
// The batch is one raw INSERT of arrays (unnest) rather than Prisma's createMany: createMany cost
// about 0.3 ms of CPU per row (query building and argument validation per row), the largest single
// piece of initdynamic's own cost in the web process (docs/performance.md, "Web-process CPU per
// request"); the raw statement costs a small fraction of that and is the same one statement.
import { hotSql } from "../db";
import { sqlStateOf } from "../errors";
import { textForPostgres } from "../db/postgres-text";
import { log as logger } from "../observability/logger";
import type { ObservedApiRequest } from "../observability/observe-api-request";
import type { Mode } from "../mode";

/** The request as observed (access line, metrics: lib/observability/observe-api-request.ts) and what is stored beside it. */
export interface ApiRequestRow
  extends Pick<ObservedApiRequest, "id" | "merchantId" | "method" | "path" | "traceApi" | "statusCode" | "errorCode" | "durationMs"> {
  /** The key's mode; null with merchantId (no key identified the request: such rows are not stored). */
  mode: Mode | null;
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

/** The row with its free text storable: U+0000 (which PostgreSQL refuses in text) replaced. */
function storable(row: ApiRequestRow): ApiRequestRow {
  return {
    ...row,
    path: textForPostgres(row.path),
    traceApi: textForPostgres(row.traceApi),
    errorDescription: textForPostgres(row.errorDescription),
    requestBody: textForPostgres(row.requestBody),
    responseBody: textForPostgres(row.responseBody),
    idempotencyKey: textForPostgres(row.idempotencyKey),
  };
}

export function recordApiRequest(row: ApiRequestRow): void {
  const current = log();
  current.pending.push(storable(row));
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
    .catch((error: unknown) =>
      refusedData(error) ? insertOneByOne(rows) : logger("merchant-api").warn(`could not record ${rows.length} request trace(s): ${String(error)}`),
    );
  await current.flushing;
}

/**
 * Whether PostgreSQL refused the rows' data (SQLSTATE class 22, data exception, or 23, integrity
 * constraint): then another row of the batch is at fault and the others can be stored. Anything else
 * (no connection, overload) would fail row by row as well, and is not retried.
 */
function refusedData(error: unknown): boolean {
  return /^2[23]/.test(sqlStateOf(error) ?? "");
}

/** After a refused batch: each row on its own, so that only a row PostgreSQL refuses is lost (and named in the log). */
async function insertOneByOne(rows: ApiRequestRow[]): Promise<void> {
  const lost: string[] = [];
  let lastError: unknown;
  for (const row of rows) {
    try {
      await insertRows([row]);
    } catch (error) {
      lost.push(row.id);
      lastError = error;
    }
  }
  if (lost.length > 0) {
    logger("merchant-api").warn(`could not record ${lost.length} of ${rows.length} request trace(s) (${lost.join(", ")}): ${String(lastError)}`);
  }
}

/** One INSERT for the batch; a row whose id is already stored is skipped (a retried flush). */
function insertRows(rows: ApiRequestRow[]): Promise<number> {
  const column = <K extends keyof ApiRequestRow>(key: K) => rows.map((row) => row[key]);
  // createdAt as ISO text into timestamp(3): the column holds UTC wall time, as Prisma writes it.
  // On the driver (hotSql, decision 0214): a batch is written for about every eleven API requests.
  return hotSql().$executeRaw`
    INSERT INTO "ApiRequest" ("id", "merchantId", "mode", "method", "path", "traceApi", "statusCode", "errorCode", "durationMs", "createdAt",
      "errorDescription", "requestBody", "responseBody", "apiKeyId", "idempotencyKey", "idempotentReplay")
    SELECT * FROM unnest(${column("id")}::text[], ${column("merchantId")}::text[], ${column("mode")}::"Mode"[], ${column("method")}::text[], ${column("path")}::text[],
      ${column("traceApi")}::text[], ${column("statusCode")}::int[], ${column("errorCode")}::text[], ${column("durationMs")}::int[],
      ${rows.map((row) => row.createdAt.toISOString())}::timestamp(3)[],
      ${column("errorDescription")}::text[], ${column("requestBody")}::text[], ${column("responseBody")}::text[], ${column("apiKeyId")}::text[],
      ${column("idempotencyKey")}::text[], ${column("idempotentReplay")}::boolean[])
    ON CONFLICT ("id") DO NOTHING`;
}
