// The merchant API as typed calls. Every request and answer type comes from src/schema.d.ts, which
// is generated from the service's OpenAPI document (scripts/generate.ts), so a call that compiles
// sends what the service accepts. openapi-fetch does the HTTP; this file adds the API key, the
// TraceApi and Idempotency-Key headers, and turns every refusal into one typed error.
import createClient, { type Client } from "openapi-fetch";
import type { components, paths } from "./schema.js";

type Schemas = components["schemas"];
export type InitDynamicRequest = Schemas["InitDynamicRequest"];
export type PaymentSession = Schemas["PaymentSession"];
export type MitRequest = Schemas["MitRequest"];
export type OperationRequest = Schemas["OperationRequest"];
export type PayoutRequest = Schemas["PayoutRequest"];
export type PayoutResult = Schemas["PayoutResult"];
export type Accepted = Schemas["Accepted"];
export type PaymentRecord = Schemas["PaymentRecord"];
export type Health = Schemas["Health"];
export type ErrorBody = Schemas["ErrorBody"];
export type ErrorCode = ErrorBody["error"];
export type PaymentDetailsQuery = NonNullable<paths["/api/{paymentid}/payment"]["get"]["parameters"]["query"]>;
export type Dispute = Schemas["Dispute"];
export type DisputeList = Schemas["DisputeList"];
export type DisputeEvidenceResult = Schemas["DisputeEvidenceResult"];
export type DisputeDecision = Schemas["DisputeDecisionRequest"]["decision"];
export type ListDisputesQuery = NonNullable<paths["/api/disputes"]["get"]["parameters"]["query"]>;

/** One evidence file for submitDisputeEvidence: its name, its type as the acquirer's rules name it, its bytes. */
export interface EvidenceFile {
  fileName: string;
  contentType: string;
  bytes: Uint8Array | Blob;
}

/** Per-call headers of spec 5 and the idempotency extension. */
export interface RequestOptions {
  /** Your trace id, stored with the request and echoed in the answer (a UUID is recommended). */
  traceApi?: string;
  /** POSTs only: a retry with the same key and parameters within 24 h gets the first answer and does nothing more. */
  idempotencyKey?: string;
  signal?: AbortSignal;
}

/**
 * Answers after which the same request may simply be sent again with the same Idempotency-Key:
 * overload (503) and rate limit (429), where nothing was done; and 409, where the first request with
 * this key is still running and MAY ALREADY HAVE ACTED: sending it again with the same key later
 * gets that first request's answer, never a second operation. (Without a key, a 409 cannot occur.)
 */
const RETRYABLE_CODES: ReadonlySet<ErrorCode> = new Set<ErrorCode>(["SERVICE_UNAVAILABLE", "RATE_LIMITED", "IDEMPOTENCY_IN_PROGRESS"]);

/** Retry-After in seconds (RFC 9110: delay-seconds or an HTTP date), undefined when absent or unreadable. */
function retryAfterSecondsOf(header: string | null | undefined, now = Date.now()): number | undefined {
  if (!header) return undefined;
  if (/^\d+$/.test(header.trim())) return Number(header.trim());
  const date = Date.parse(header);
  return Number.isNaN(date) ? undefined : Math.max(0, Math.ceil((date - now) / 1000));
}

/**
 * Any answer other than 200: `status` is the HTTP status and `body` the spec's `{ error,
 * errordescription }` (undefined when something between you and the service answered with another
 * shape, such as a proxy's HTML page). `traceApi` is the TraceApi the service echoed, if any.
 * `retryable` is true when the same request (same Idempotency-Key) may be sent again, after
 * `retryAfterSeconds` when it sent Retry-After: see RETRYABLE_CODES for what each one means.
 */
export class PaymentApiError extends Error {
  override readonly name = "PaymentApiError";
  readonly status: number;
  readonly body: ErrorBody | undefined;
  readonly code: ErrorCode | undefined;
  readonly traceApi: string | undefined;
  /**
   * SERVICE_UNAVAILABLE or RATE_LIMITED (nothing was done), or IDEMPOTENCY_IN_PROGRESS (the first
   * request with this key may have acted and is still running): send the same request again with the
   * same Idempotency-Key. After an INTERNAL_ERROR work may have been done under `body.responseid`;
   * with an Idempotency-Key, the same request again answers what was done, never a second operation.
   */
  readonly retryable: boolean;
  /** The Retry-After header in seconds, when the service sent one. */
  readonly retryAfterSeconds: number | undefined;

  constructor({
    status,
    body,
    traceApi,
    retryAfter,
    operation,
  }: {
    status: number;
    body: ErrorBody | undefined;
    traceApi?: string;
    /** The Retry-After header as received. */
    retryAfter?: string | null;
    operation: string;
  }) {
    super(
      body ? `${operation}: HTTP ${status} ${body.error}: ${body.errordescription}` : `${operation}: HTTP ${status} without an error body`,
    );
    this.status = status;
    this.body = body;
    this.code = body?.error;
    this.traceApi = traceApi;
    this.retryable = this.code !== undefined && RETRYABLE_CODES.has(this.code);
    this.retryAfterSeconds = retryAfterSecondsOf(retryAfter);
  }
}

export interface PaymentClientOptions {
  /** The service's address, e.g. https://pay.example.com (no /api). */
  baseUrl: string;
  /** The API key as issued in the back office; sent as `Authorization: Basic <key>` (spec 5). */
  apiKey: string;
  /** A fetch to use instead of the global one (tests, proxies, timeouts). */
  fetch?: (request: Request) => Promise<Response>;
}

function isErrorBody(value: unknown): value is ErrorBody {
  return (
    typeof value === "object" &&
    value !== null &&
    typeof (value as Record<string, unknown>).error === "string" &&
    typeof (value as Record<string, unknown>).errordescription === "string"
  );
}

function headersOf(options: RequestOptions | undefined, { post }: { post: boolean }) {
  const headers: { TraceApi?: string; "Idempotency-Key"?: string } = {};
  if (options?.traceApi !== undefined) headers.TraceApi = options.traceApi;
  if (post && options?.idempotencyKey !== undefined) headers["Idempotency-Key"] = options.idempotencyKey;
  return headers;
}

/** openapi-fetch answers `{ data }` or `{ error }`; the client answers the data or throws. */
async function unwrap<T>(operation: string, call: Promise<{ data?: T; error?: unknown; response: Response }>): Promise<T> {
  const { data, error, response } = await call;
  if (response.ok && data !== undefined) return data;
  throw new PaymentApiError({
    operation,
    status: response.status,
    body: isErrorBody(error) ? error : undefined,
    traceApi: response.headers.get("TraceApi") ?? undefined,
    retryAfter: response.headers.get("Retry-After"),
  });
}

export function createPaymentClient({ baseUrl, apiKey, fetch }: PaymentClientOptions) {
  const api: Client<paths> = createClient<paths>({
    baseUrl: baseUrl.replace(/\/+$/, ""),
    headers: { Authorization: `Basic ${apiKey}` },
    ...(fetch ? { fetch } : {}),
  });

  const operation =
    (verb: "capture" | "refund" | "void") =>
    (paymentId: string, body: OperationRequest = {}, options?: RequestOptions): Promise<Accepted> =>
      unwrap(
        `${verb} ${paymentId}`,
        api.POST(`/api/{paymentid}/${verb}`, {
          params: { path: { paymentid: paymentId }, header: headersOf(options, { post: true }) },
          body,
          signal: options?.signal,
        }),
      );

  return {
    /** POST /api/initdynamic: open a payment window for the hosted fields (spec 4.1). */
    initDynamic: (body: InitDynamicRequest, options?: RequestOptions): Promise<PaymentSession> =>
      unwrap(
        "initdynamic",
        api.POST("/api/initdynamic", { params: { header: headersOf(options, { post: true }) }, body, signal: options?.signal }),
      ),

    /** POST /api/mit: charge stored card data; the result arrives as the `mit` notification (spec 4.3). */
    authorizeMit: (body: MitRequest, options?: RequestOptions): Promise<Accepted> =>
      unwrap("mit", api.POST("/api/mit", { params: { header: headersOf(options, { post: true }) }, body, signal: options?.signal })),

    /** POST /api/{paymentid}/capture: omit the amount to capture the rest; result by `capture` notification (spec 4.4). */
    capture: operation("capture"),
    /** POST /api/{paymentid}/refund: omit the amount to refund the rest; result by `refund` notification (spec 4.5). */
    refund: operation("refund"),
    /** POST /api/{paymentid}/void: result by `void` notification (spec 4.6). */
    void: operation("void"),

    /** POST /api/{paymentid}/payout: synchronous, the result is the answer (spec 4.7). */
    payout: (paymentId: string, body: PayoutRequest, options?: RequestOptions): Promise<PayoutResult> =>
      unwrap(
        `payout ${paymentId}`,
        api.POST("/api/{paymentid}/payout", {
          params: { path: { paymentid: paymentId }, header: headersOf(options, { post: true }) },
          body,
          signal: options?.signal,
        }),
      ),

    /** GET /api/{paymentid}/payment: the record arrives as the `payment-details` notification (spec 4.8). */
    requestPaymentDetails: (
      paymentId: string,
      query: Omit<PaymentDetailsQuery, "sync"> = {},
      options?: RequestOptions,
    ): Promise<Accepted> =>
      unwrap(
        `payment details ${paymentId}`,
        api.GET("/api/{paymentid}/payment", {
          params: { path: { paymentid: paymentId }, query, header: headersOf(options, { post: false }) },
          signal: options?.signal,
        }),
      ) as Promise<Accepted>,

    /** GET /api/{paymentid}/payment?sync=1: the payment record as the answer, no notification (beyond the spec). */
    getPayment: (
      paymentId: string,
      query: Omit<PaymentDetailsQuery, "sync" | "notificationurl"> = {},
      options?: RequestOptions,
    ): Promise<PaymentRecord> =>
      unwrap(
        `payment ${paymentId}`,
        api.GET("/api/{paymentid}/payment", {
          params: { path: { paymentid: paymentId }, query: { ...query, sync: "1" }, header: headersOf(options, { post: false }) },
          signal: options?.signal,
        }),
      ) as Promise<PaymentRecord>,

    /** GET /api/health (spec 4.9): the report, whether every part is ok (200) or one is in error (503). */
    health: async (options?: Pick<RequestOptions, "signal">): Promise<{ ok: boolean; report: Health }> => {
      const { data, error, response } = await api.GET("/api/health", { signal: options?.signal });
      const report = (data ?? error) as Health | undefined;
      if ((response.status === 200 || response.status === 503) && report && typeof report === "object") return { ok: response.ok, report };
      throw new PaymentApiError({ operation: "health", status: response.status, body: isErrorBody(error) ? error : undefined });
    },

    /** GET /api/disputes: your disputes, open ones first by due date (beyond the spec). */
    listDisputes: (query: Omit<ListDisputesQuery, "merchantid"> = {}, options?: RequestOptions): Promise<DisputeList> =>
      unwrap(
        "list disputes",
        api.GET("/api/disputes", { params: { query, header: headersOf(options, { post: false }) }, signal: options?.signal }),
      ),

    /** GET /api/disputes/{disputeid}: one dispute (beyond the spec). */
    getDispute: (disputeId: string, options?: RequestOptions): Promise<Dispute> =>
      unwrap(
        `dispute ${disputeId}`,
        api.GET("/api/disputes/{disputeid}", {
          params: { path: { disputeid: disputeId }, header: headersOf(options, { post: false }) },
          signal: options?.signal,
        }),
      ),

    /**
     * POST /api/disputes/{disputeid}/evidence: files (multipart/form-data) and an optional comment,
     * checked against the acquirer's rules and sent to it; not yet an answer (beyond the spec).
     */
    submitDisputeEvidence: (
      disputeId: string,
      evidence: { files: readonly EvidenceFile[]; comment?: string },
      options?: RequestOptions,
    ): Promise<DisputeEvidenceResult> => {
      const form = new FormData();
      for (const file of evidence.files) {
        const blob = file.bytes instanceof Blob ? file.bytes : new Blob([file.bytes as Uint8Array<ArrayBuffer>], { type: file.contentType });
        form.append("files", new File([blob], file.fileName, { type: file.contentType }));
      }
      if (evidence.comment !== undefined) form.append("comment", evidence.comment);
      return unwrap(
        `dispute evidence ${disputeId}`,
        api.POST("/api/disputes/{disputeid}/evidence", {
          params: { path: { disputeid: disputeId }, header: headersOf(options, { post: true }) },
          // The form as it is: fetch writes the multipart boundary into Content-Type itself.
          body: form as never,
          bodySerializer: (body) => body as unknown as FormData,
          signal: options?.signal,
        }),
      );
    },

    /** POST /api/disputes/{disputeid}/decision: refute or accept, final at the acquirer; the dispute afterwards (beyond the spec). */
    decideDispute: (disputeId: string, decision: DisputeDecision, options?: RequestOptions): Promise<Dispute> =>
      unwrap(
        `dispute decision ${disputeId}`,
        api.POST("/api/disputes/{disputeid}/decision", {
          params: { path: { disputeid: disputeId }, header: headersOf(options, { post: true }) },
          body: { decision },
          signal: options?.signal,
        }),
      ),

    /** The underlying openapi-fetch client, typed by the same document, for anything not wrapped above. */
    raw: api,
  };
}

export type PaymentClient = ReturnType<typeof createPaymentClient>;
