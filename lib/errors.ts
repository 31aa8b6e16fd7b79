// One error type for everything the merchant API refuses, and one table mapping its codes to HTTP
// statuses. The spec (section 7) defines a 400 with `{ error, errordescription }` and three codes;
// anything not raised as an ApiError is unexpected and becomes a plain 500 (see lib/api/).

/** The error codes of spec section 7, plus the two the service adds for its own extensions. */
export const API_ERROR_STATUS = {
  INVALID_API_KEY: 400,
  INVALID_MERCHANTID: 400,
  INVALID_PARAMETER: 400,
  /** An Idempotency-Key whose first request is still running (beyond the spec; Stripe answers 409). */
  IDEMPOTENCY_IN_PROGRESS: 409,
  /** An /api/ path that names no endpoint (beyond the spec). */
  NOT_FOUND: 404,
  /** An endpoint called with a method it does not take; with Allow (beyond the spec). */
  METHOD_NOT_ALLOWED: 405,
  /** A request body over the endpoint's limit, refused before it is read (beyond the spec). */
  PAYLOAD_TOO_LARGE: 413,
  /** Too many requests for one API key or hosted-field session (beyond the spec); with Retry-After. */
  RATE_LIMITED: 429,
  /** Anything unexpected: the body carries a request id and nothing else. */
  INTERNAL_ERROR: 500,
  /**
   * Overloaded: the request's database work could not get a connection in time, so nothing was done;
   * the same request (same Idempotency-Key) may be sent again after Retry-After (beyond the spec).
   */
  SERVICE_UNAVAILABLE: 503,
  /**
   * The acquirer's reporting API (disputes) did not answer usably: down, an error status, an
   * unreadable answer. What was asked may not have reached it; the dispute shows what it has
   * (beyond the spec).
   */
  ACQUIRER_UNAVAILABLE: 502,
  /**
   * The acquirer refused the acquirer account's reporting credentials: nothing was done there, and
   * nothing will be until they are entered again; the account shows them as failing (beyond the spec).
   */
  ACQUIRER_CREDENTIALS_REFUSED: 502,
} as const;

export type ApiErrorCode = keyof typeof API_ERROR_STATUS;

export interface ApiErrorBody {
  error: ApiErrorCode;
  errordescription: string;
}

export class ApiError extends Error {
  readonly code: ApiErrorCode;
  readonly status: number;
  /** Sent as Retry-After (RATE_LIMITED, SERVICE_UNAVAILABLE). */
  readonly retryAfterSeconds?: number;

  constructor(code: ApiErrorCode, description: string, options: { retryAfterSeconds?: number } = {}) {
    super(description);
    this.name = "ApiError";
    this.code = code;
    this.status = API_ERROR_STATUS[code];
    this.retryAfterSeconds = options.retryAfterSeconds;
  }

  toBody(): ApiErrorBody {
    return { error: this.code, errordescription: this.message };
  }
}

/** A refused parameter: the description names it and says why, as section 7 asks. */
export function invalidParameter(parameter: string, reason: string): ApiError {
  return new ApiError("INVALID_PARAMETER", `${parameter}: ${reason}`);
}

export function invalidApiKey(reason = "missing, unknown, revoked or expired API key"): ApiError {
  return new ApiError("INVALID_API_KEY", `Authorization: ${reason}`);
}

export function invalidMerchantId(): ApiError {
  return new ApiError("INVALID_MERCHANTID", "merchantid: does not belong to the API key");
}

/**
 * A payment that does not exist or belongs to another merchant: both answer the same, so that no
 * merchant can learn anything about another's payments.
 */
export function unknownPayment(parameter = "paymentid"): ApiError {
  return invalidParameter(parameter, "no such payment");
}

/** Too many requests: `retryAfterSeconds` until the next one is accepted. */
export function rateLimited(retryAfterSeconds: number, limit: string): ApiError {
  return new ApiError("RATE_LIMITED", `too many requests (limit: ${limit}); retry after ${retryAfterSeconds} s`, { retryAfterSeconds });
}

/**
 * Seconds a merchant is asked to wait after SERVICE_UNAVAILABLE: about the time the refused request
 * already waited for a connection (Prisma's 2 s transaction maxWait), so that a retry meets a queue
 * that has had time to drain rather than the same one
 * (docs/decisions/0080-overload-answers-503-service-unavailable-not-500.md).
 */
export const OVERLOAD_RETRY_AFTER_SECONDS = 2;

/** The overload answer: nothing was done, retry the same request after Retry-After. */
export function serviceUnavailable(): ApiError {
  return new ApiError(
    "SERVICE_UNAVAILABLE",
    `the service is temporarily unavailable (overloaded) and nothing was done; retry the same request with the same Idempotency-Key after ${OVERLOAD_RETRY_AFTER_SECONDS} s`,
    { retryAfterSeconds: OVERLOAD_RETRY_AFTER_SECONDS },
  );
}

/**
 * The SQLSTATE of a database error, whichever way it came: from the driver itself (pg's `code`,
 * lib/db/hot-sql.ts, decision 0214) or through Prisma (its adapter's `originalCode`). Undefined for
 * anything else (Prisma's own P-codes are not SQLSTATEs).
 */
export function sqlStateOf(error: unknown): string | undefined {
  const failed = error as { code?: unknown; clientVersion?: unknown; meta?: { driverAdapterError?: { cause?: { originalCode?: unknown } } } } | null;
  const original = failed?.meta?.driverAdapterError?.cause?.originalCode;
  if (typeof original === "string") return original;
  // A Prisma error's own `code` is a P-code (P2010), never a SQLSTATE, though it looks like one.
  if (failed?.clientVersion !== undefined) return undefined;
  return typeof failed?.code === "string" && /^[0-9A-Z]{5}$/.test(failed.code) ? failed.code : undefined;
}

/**
 * The one place that recognises "the database could not be reached in time" (overload), thrown
 * before any statement ran: Prisma's interactive transaction that could not start within its maxWait
 * (P2028 "Unable to start a transaction in the given time"), the pg pool's bounded wait for a free
 * connection ("timeout exceeded when trying to connect"), a new connection that did not open in that
 * time, and PostgreSQL refusing more connections (53300, Prisma P2037 or a raw query's P2010).
 * Matched by shape rather than by class, so this kernel imports no database client. Callers that
 * may already have committed something must not use it to say "nothing was done" (see payout.ts).
 */
export function isDatabaseOverload(error: unknown): error is Error {
  if (!(error instanceof Error)) return false;
  const { code, meta } = error as Error & { code?: unknown; meta?: { driverAdapterError?: { cause?: { kind?: unknown } } } };
  if (code === "P2028") return /Unable to start a transaction in the given time/.test(error.message);
  if (meta?.driverAdapterError?.cause?.kind === "TooManyConnections") return true;
  // The same refusal from the driver itself (hotSql, decision 0214): SQLSTATE 53300.
  if (sqlStateOf(error) === "53300") return true;
  return error.message === "timeout exceeded when trying to connect" || error.message === "Connection terminated due to connection timeout";
}
