// The ONE wrapper around every merchant API route handler: API-key authentication, the merchantid
// check, TraceApi (stored and echoed), zod parsing, Idempotency-Key on POSTs, the ApiRequest
// trace row and the mapping of errors to the spec's 400 body (section 7), a 503 when the database
// could not be reached in time (overload: nothing was done), or a plain 500.
import type { z } from "zod";
import { createHash } from "node:crypto";
import { redactCardNumbers } from "../cards/redact-card-numbers";
import { ApiError, invalidMerchantId, invalidParameter, isDatabaseOverload, serviceUnavailable } from "../errors";
import { BodyTooLargeError, declaresTooLargeBody, readLimitedStream, readLimitedText } from "../http/read-limited-body";
import { faultPoint } from "../faults/fault-point";
import { newId } from "../ids";
import { parseInput } from "../validation/parse-input";
import { addToRequestContext, requestContext } from "../observability/request-context";
import { log } from "../observability/logger";
import { apiRouteLabel, observeApiRequest, observedRequest } from "../observability/observe-api-request";
import { recordApiRequest, type ApiRequestRow } from "./api-request-log";
import { maskLoggedBody, maskLoggedValue } from "./mask-logged-body";
import { consumeRateLimit } from "./rate-limits";
import { authenticateApiKey } from "./authenticate-api-key";
import type { Tx } from "../db";
import { resolveAcceptedRequest } from "./resolve-accepted-request";
import type { ApiKeyScope } from "../api-keys/api-key-scopes";
import type { Mode } from "../mode";
import {
  bindIdempotentAnswer,
  claimIdempotencyKey,
  completeIdempotentRequest,
  DEFAULT_IDEMPOTENCY_LEASE_MS,
  keepIdempotencyKeyAfterFailure,
  parseIdempotencyKey,
  releaseIdempotencyKey,
  requestFingerprint,
  type IdempotencyHold,
  type ResolveHolderWork,
} from "./idempotency";

export const TRACE_HEADER = "TraceApi";
const TRACE_PATTERN = /^[\x21-\x7e]{1,128}$/;
/** Request bodies are small JSON objects; anything far larger is refused before parsing. */
const MAX_BODY_BYTES = 64 * 1024;
/** Answers from this size on are left to the server's compression (its own threshold, 1 KB). */
const COMPRESS_FROM_BYTES = 1024;

export interface MerchantRequestContext<Input> {
  merchantId: string;
  /** The API key that authenticated the request (the audit's actor for what it changes). */
  apiKeyId: string;
  /** The API key's mode: the use case reads and makes only data of this mode. */
  mode: Mode;
  input: Input;
  /** The `{paymentid}` path segment, when the route has one. */
  paymentRef?: string;
  /** The path's other segments by name (`{disputeid}` ...), as sent. */
  pathParams: Record<string, string>;
  /** Unique id of this request: the spec's `responseid`, also the ApiRequest row's id. */
  responseId: string;
  traceApi?: string;
  /**
   * Present when the request holds an Idempotency-Key: stores the answer (status 200, this body)
   * under the key in the transaction that writes the work, so both commit together. A use case that
   * does not call it gets its answer stored after it returns.
   */
  bindAnswer?: (tx: Tx, body: Record<string, unknown>) => Promise<void>;
}

export interface MerchantRouteResult {
  status?: number;
  body: Record<string, unknown>;
}

export interface MerchantRouteDefinition<Schema extends z.ZodType> {
  /** The API-key scope the route needs (lib/api-keys/api-key-scopes.ts), checked with the key. */
  scope: ApiKeyScope;
  schema: Schema;
  /**
   * A POST body of files (dispute evidence): multipart/form-data up to `maxBytes`, read as
   * `{ files: File[], ...text fields }`. The request log and the Idempotency-Key fingerprint see each
   * file's name, type, size and SHA-256, never its bytes. Absent: a JSON body of at most 64 KB.
   */
  multipart?: { maxBytes: number };
  handler: (context: MerchantRequestContext<z.output<Schema>>) => Promise<MerchantRouteResult>;
  /** How long a request holding an Idempotency-Key may work before a repeat asks what it did (default 60 s). */
  idempotencyLeaseMs?: () => number;
  /**
   * What the work of a request that held the key and died (or failed) answers now, found by its
   * responseid; default: an accepted asynchronous request (an operation or payment with that
   * responseid) answers `{responseid}`.
   */
  resolveHolderWork?: ResolveHolderWork;
}

type RouteContext = { params: Promise<Record<string, string | string[] | undefined>> };

/** The error for the log, with anything that looks like a card number masked (defence in depth). */
function errorForLog(error: unknown): string {
  return redactCardNumbers(error instanceof Error ? (error.stack ?? `${error.name}: ${error.message}`) : typeof error);
}

/** The overload answer, and one warn line saying which wait ran out (no stack: overload is not a fault). */
function overloaded(error: unknown, requestId: string): ApiError {
  // The last line of Prisma's message says what ran out (its first lines quote the calling code).
  const lines = error instanceof Error ? error.message.split("\n").filter((line) => line.trim()) : [];
  const reason = redactCardNumbers((lines.pop() ?? "").trim());
  log("merchant-api").warn({ reason }, `request ${requestId}: no database connection in time (overload), answered 503`);
  return serviceUnavailable();
}

/** JSON with BigInt (money) written as numbers. */
export function toJson(value: unknown): string {
  return JSON.stringify(value, (_key, item: unknown) => (typeof item === "bigint" ? Number(item) : item));
}

/**
 * The body as parsed input; `read.text` keeps the text as sent, for the request log, and
 * `read.fingerprint` what the Idempotency-Key compares when it is not the input itself (files).
 */
async function readInput(
  request: Request,
  url: URL,
  read: { text?: string; fingerprint?: unknown },
  multipart?: { maxBytes: number },
): Promise<unknown> {
  if (request.method === "GET" || request.method === "HEAD") return Object.fromEntries(url.searchParams);
  if (multipart) return readMultipart(request, read, multipart.maxBytes);
  let text: string;
  try {
    text = await readLimitedText(request, MAX_BODY_BYTES);
    read.text = text;
  } catch (error) {
    if (error instanceof BodyTooLargeError) throw payloadTooLarge();
    // The client went away or sent a broken body: its problem, not an internal error.
    throw invalidParameter("body", "could not be read");
  }
  if (!text.trim()) return {};
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw invalidParameter("body", "is not valid JSON");
  }
}

function payloadTooLarge(maxBytes = MAX_BODY_BYTES): ApiError {
  return new ApiError("PAYLOAD_TOO_LARGE", `body: must be at most ${maxBytes} bytes`);
}

/**
 * A multipart/form-data body as `{ files: File[], <field>: string }` (a field sent twice keeps its
 * last value; the schema refuses unknown fields by name). The bytes are read once, capped.
 */
async function readMultipart(request: Request, read: { text?: string; fingerprint?: unknown }, maxBytes: number): Promise<unknown> {
  const contentType = request.headers.get("content-type") ?? "";
  if (!/^multipart\/form-data\s*;/i.test(contentType)) throw invalidParameter("Content-Type", "must be multipart/form-data (one part per file, named files)");
  let bytes: Buffer;
  try {
    bytes = await readLimitedStream(request.body, maxBytes);
  } catch (error) {
    if (error instanceof BodyTooLargeError) throw payloadTooLarge(maxBytes);
    throw invalidParameter("body", "could not be read");
  }
  let form: FormData;
  try {
    form = await new Response(new Uint8Array(bytes), { headers: { "content-type": contentType } }).formData();
  } catch {
    throw invalidParameter("body", "is not valid multipart/form-data");
  }
  const input: Record<string, unknown> = {};
  const files: File[] = [];
  const described: Record<string, unknown>[] = [];
  for (const [name, value] of form.entries()) {
    if (typeof value === "string") input[name] = value;
    else if (name === "files") {
      files.push(value);
      const sha256 = createHash("sha256").update(new Uint8Array(await value.arrayBuffer())).digest("hex");
      described.push({ name: value.name, type: value.type, size: value.size, sha256 });
    } else input[name] = value;
  }
  if (files.length > 0) input.files = files;
  const summary = { ...Object.fromEntries(Object.entries(input).filter(([, value]) => typeof value === "string")), files: described };
  read.text = JSON.stringify(summary);
  read.fingerprint = summary;
  return input;
}

function readTrace(request: Request): string | undefined {
  const value = request.headers.get(TRACE_HEADER);
  return value !== null && TRACE_PATTERN.test(value) ? value : undefined;
}

/** The TraceApi echo for routes outside the wrapper (health): the header back when it is well formed. */
export function traceHeaders(request: Request): Record<string, string> {
  const traceApi = readTrace(request);
  return traceApi ? { [TRACE_HEADER]: traceApi } : {};
}

export function merchantRoute<Schema extends z.ZodType>(definition: MerchantRouteDefinition<Schema>) {
  // The request id and TraceApi are on every log line of the request, which is one span.
  return (request: Request, context?: RouteContext): Promise<Response> => {
    const url = new URL(request.url);
    const traceApi = readTrace(request);
    return observedRequest({ requestId: newId(), traceApi, method: request.method, route: apiRouteLabel(url.pathname) }, () =>
      handle(request, url, traceApi, context),
    );
  };

  async function handle(request: Request, url: URL, traceApi: string | undefined, context?: RouteContext): Promise<Response> {
    const started = Date.now();
    const requestId = requestContext()?.requestId ?? newId();
    let merchantId: string | undefined;
    let mode: Mode | undefined;
    let status = 500;
    let body: string;
    let errorCode: string | undefined;
    let errorDescription: string | undefined;
    let apiKeyId: string | undefined;
    let idempotencyKey: string | undefined;
    const read: { text?: string; fingerprint?: unknown } = {};
    const maxBodyBytes = definition.multipart?.maxBytes ?? MAX_BODY_BYTES;
    let replayed = false;
    /** Set once the handler has returned: its work is done, so no later failure may say otherwise. */
    let performed = false;
    let rateLimitRetryAfter: number | undefined;
    let idempotency: IdempotencyHold | undefined;
    let bound = false;
    try {
      // A declared body over the limit is refused before anything else, unauthenticated or not.
      if (declaresTooLargeBody(request.headers, maxBodyBytes)) throw payloadTooLarge(maxBodyBytes);
      const authenticated = await authenticateApiKey({ authorization: request.headers.get("authorization"), scope: definition.scope });
      merchantId = authenticated.merchantId;
      mode = authenticated.mode;
      apiKeyId = authenticated.apiKeyId;
      addToRequestContext({ merchantId });
      await consumeRateLimit("api-key", authenticated.apiKeyId);
      const rawInput = await readInput(request, url, read, definition.multipart);
      if (request.headers.get(TRACE_HEADER) !== null && !traceApi) {
        throw invalidParameter(TRACE_HEADER, "must be 1 to 128 visible ASCII characters, a UUID is recommended");
      }
      // The merchantid check comes before the other parameters: a request for another merchant is
      // refused as such, whatever else is wrong with it.
      if (rawInput && typeof rawInput === "object" && "merchantid" in rawInput) {
        const claimed = (rawInput as { merchantid: unknown }).merchantid;
        // Only a string or a number can name a merchant; String() of anything else may throw ({"toString":1}).
        const named = typeof claimed === "string" || typeof claimed === "number" ? String(claimed) : undefined;
        if (named !== merchantId) throw invalidMerchantId();
      }
      const input = parseInput(definition.schema, rawInput);
      // Next.js resolves `params` to undefined on routes without dynamic segments (e.g. /api/initdynamic).
      const params = (context ? await context.params : undefined) ?? {};
      const paymentRef = typeof params.paymentid === "string" ? params.paymentid : undefined;
      const pathParams = Object.fromEntries(Object.entries(params).filter((entry): entry is [string, string] => typeof entry[1] === "string"));

      const key = request.method === "POST" ? parseIdempotencyKey(request.headers.get("idempotency-key")) : undefined;
      idempotencyKey = key;
      if (key) {
        const stored = await claimIdempotencyKey({
          merchantId,
          // One key namespace per mode ("test " cannot start a key: the header has no spaces), so a
          // key used in test mode can be used again in live mode; live keys are stored as sent.
          key: mode === "test" ? `test ${key}` : key,
          responseId: requestId,
          fingerprint: requestFingerprint(request.method, url.pathname, read.fingerprint ?? rawInput),
          leaseMs: definition.idempotencyLeaseMs?.() ?? DEFAULT_IDEMPOTENCY_LEASE_MS,
          resolveHolderWork: definition.resolveHolderWork ?? resolveAcceptedRequest,
        });
        if (stored) {
          replayed = true;
          status = stored.status;
          body = stored.body;
        } else {
          idempotency = { merchantId, key: mode === "test" ? `test ${key}` : key, responseId: requestId };
        }
      }
      if (!replayed) {
        const hold = idempotency;
        const bindAnswer = hold
          ? async (tx: Tx, answer: Record<string, unknown>) => {
              await bindIdempotentAnswer(tx, hold, { status: 200, body: toJson(answer) });
              bound = true;
            }
          : undefined;
        const result = await definition.handler({ merchantId, apiKeyId, mode, input, paymentRef, pathParams, responseId: requestId, traceApi, bindAnswer });
        performed = true;
        // A failure between the work and its answer (the key's completion, the connection).
        faultPoint("merchant-api.after-work");
        status = result.status ?? 200;
        body = toJson(result.body);
        if (idempotency) {
          if (!bound) await completeIdempotentRequest({ ...idempotency, answer: { status, body } });
          idempotency = undefined;
        }
      }
    } catch (caught) {
      // No pooled connection in time (overload) before the work was done: nothing changed, so the
      // answer is 503 "retry the same request", not an internal error.
      const error = !performed && isDatabaseOverload(caught) ? overloaded(caught, requestId) : caught;
      if (error instanceof ApiError) {
        rateLimitRetryAfter = error.retryAfterSeconds;
        status = error.status;
        errorCode = error.code;
        errorDescription = error.message;
        body = toJson(error.toBody());
      } else {
        // Unexpected: the message may carry internals, so it goes to the log with the request id
        // and the merchant gets the id only.
        status = 500;
        errorCode = "INTERNAL_ERROR";
        errorDescription = `unexpected error; quote request id ${requestId}`;
        log("merchant-api").error({ error: errorForLog(error) }, `request ${requestId} ${request.method} ${url.pathname} failed`);
        // The responseid too: work may have been done under it, and a repeat with the same
        // Idempotency-Key is answered from that work (docs/decisions/0105-unknown-outcomes-when-not-found-is-trusted-what.md).
        body = toJson({ error: "INTERNAL_ERROR", errordescription: errorDescription, responseid: requestId });
      }
      if (idempotency) {
        // A refusal did nothing: the key is given back. Anything else may have acted: the key stays
        // bound to this request's work, and a repeat is answered from it.
        const settleKey = error instanceof ApiError ? releaseIdempotencyKey : keepIdempotencyKeyAfterFailure;
        await settleKey(idempotency).catch(() => undefined);
      }
    }
    // An answer under 1 KB (nearly every one) is sent as it is. Next.js compresses every answer for
    // a client that accepts gzip (every fetch does): it drops a route's Content-Length (Next.js 16,
    // send-response.ts), so its compression's 1 KB threshold never applies, and it cost the web
    // process 6.5% to 10% of its CPU for bodies of a few dozen bytes (docs/performance.md). Its
    // compression leaves alone what says `Cache-Control: no-transform` (which also tells any proxy
    // not to rewrite it). Decision 0174; tests/integration/api/small-answers-go-uncompressed.test.ts.
    const length = Buffer.byteLength(body!);
    // A plain object: the Response makes its Headers once (a Headers here would be copied).
    const headers: Record<string, string> = {
      "Content-Type": "application/json",
      "Cache-Control": length < COMPRESS_FROM_BYTES ? "no-store, no-transform" : "no-store",
      "X-Request-Id": requestId,
      // Dropped by Next.js (above); kept for a handler run outside it (the tests' in-process calls).
      "Content-Length": String(length),
    };
    if (traceApi) headers[TRACE_HEADER] = traceApi;
    if (replayed) headers["Idempotent-Replayed"] = "true";
    if (errorCode === "RATE_LIMITED" || errorCode === "SERVICE_UNAVAILABLE") headers["Retry-After"] = String(rateLimitRetryAfter ?? 1);
    /**
     * What the Developers page shows beyond the trace: the error description, both bodies with card
     * numbers masked (the merchant's own id kept readable), the key and whether the answer was a
     * replay. Only for requests a key identified (the others are not stored at all, below).
     */
    function loggedExchange(): Pick<ApiRequestRow, "errorDescription" | "requestBody" | "responseBody" | "apiKeyId" | "idempotencyKey" | "idempotentReplay"> {
      const keep = merchantId ? [merchantId] : [];
      const query = request.method === "GET" || request.method === "HEAD" ? Object.fromEntries(url.searchParams) : undefined;
      return {
        errorDescription: errorDescription ?? null,
        requestBody: !merchantId ? null : query ? (Object.keys(query).length > 0 ? maskLoggedValue(query, { keep }) : null) : maskLoggedBody(read.text, { keep }),
        responseBody: merchantId ? maskLoggedBody(body, { keep }) : null,
        apiKeyId: apiKeyId ?? null,
        // Free text of the merchant's, as the path and TraceApi below: masked the same way.
        idempotencyKey: idempotencyKey === undefined ? null : redactCardNumbers(idempotencyKey),
        idempotentReplay: replayed,
      };
    }
    // The stored path and TraceApi are the merchant's free text: a card number in either is masked
    // before it is stored and shown in the Developers area (security review 3, L4).
    const row: ApiRequestRow = {
      id: requestId,
      merchantId: merchantId ?? null,
      mode: mode ?? null,
      method: request.method,
      path: redactCardNumbers(url.pathname),
      traceApi: traceApi === undefined ? null : redactCardNumbers(traceApi),
      statusCode: status,
      errorCode: errorCode ?? null,
      durationMs: Date.now() - started,
      createdAt: new Date(started),
      ...loggedExchange(),
    };
    // A request no key identified is shown to no one: it is counted (metrics, access line), not stored,
    // so anonymous traffic cannot fill the disk (security review 3, L2).
    if (row.merchantId) recordApiRequest(row);
    observeApiRequest(row);
    return new Response(body!, { status, headers });
  }
}
