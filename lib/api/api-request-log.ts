// The ApiRequest trace rows (responseid, TraceApi, outcome) are written in batches: one INSERT per
// request would double the database work of the cheapest endpoints. Rows wait at most
// FLUSH_INTERVAL_MS; a crash loses at most that much tracing, never a payment.
import { db } from "../db";
import { log as logger } from "../observability/logger";

export interface ApiRequestRow {
  id: string;
  merchantId: string | null;
  method: string;
  path: string;
  traceApi: string | null;
  statusCode: number;
  errorCode: string | null;
  durationMs: number;
  createdAt: Date;
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
  current.flushing = db()
    .apiRequest.createMany({ data: rows, skipDuplicates: true })
    .then(() => undefined)
    .catch((error: unknown) => logger("merchant-api").warn(`could not record ${rows.length} request trace(s): ${String(error)}`));
  await current.flushing;
}
