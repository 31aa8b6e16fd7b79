// The one place connectors talk HTTP: a bounded time-out on every call, and network failures sorted
// into "nothing happened" (retryable) and "we cannot know" (indeterminate). Never logs bodies: they
// carry card data. The endpoints the operator configured (or the built-in sandboxes) are called as
// they are; a destination taken from an acquirer's answer (a link to another host, such as an
// evidence file's upload link) goes through the egress guard of every address the service does not
// configure itself (`egress`: lib/egress, checked before the request and again when its name is
// resolved, so a DNS answer cannot switch it; docs/decisions/0211-links-in-acquirer-answers-go-through-the-egress-guard.md).
import { Agent, fetch as undiciFetch } from "undici";
import { checkMerchantUrl } from "../../egress/check-merchant-url";
import { boundedText } from "../../egress/bounded-read";
import { checkedLookup, egressRefusalMessage } from "../../egress/checked-lookup";
import type { EgressPolicy } from "../../egress/egress-policy";
import { RESPONSE_CODES, type ProcessorResult } from "../contract";

export interface SendOptions {
  url: string;
  /** PUT: the reporting APIs' stamps and evidence uploads (Clearhaus Merchant API). */
  method: "GET" | "POST" | "PUT";
  headers: Record<string, string>;
  /** Text, or the bytes of an evidence file. */
  body?: string | Uint8Array;
  timeoutMs: number;
  signal?: AbortSignal;
  /**
   * Set for a destination the service did not configure (a link in an acquirer's answer): the egress
   * policy it must pass (lib/egress/egress-policy.ts egressPolicy()). A refused one is never connected to.
   */
  egress?: EgressPolicy;
}

export type SendOutcome =
  | { kind: "response"; status: number; contentType: string; text: string }
  | { kind: "timeout" }
  | { kind: "aborted" }
  | { kind: "network"; sent: boolean; message: string }
  /** The egress policy refused the destination: nothing was sent. `reason` says why ("destination not allowed: ..."). */
  | { kind: "refused"; reason: string };

const NOT_SENT_CODES = new Set(["ECONNREFUSED", "ENOTFOUND", "EAI_AGAIN", "EHOSTUNREACH", "ENETUNREACH", "ECONNRESET_BEFORE_SEND"]);

function causeCode(error: unknown): string | undefined {
  if (error && typeof error === "object" && "cause" in error) {
    const cause = (error as { cause?: { code?: unknown } }).cause;
    if (cause && typeof cause.code === "string") return cause.code;
  }
  return undefined;
}

/** The most of an answer read from a destination taken from an acquirer's answer. */
const GUARDED_ANSWER_BYTES = 64 * 1024;

export async function send({ url, method, headers, body, timeoutMs, signal, egress }: SendOptions): Promise<SendOutcome> {
  // Scheme and IP literals before any connection; host names when they are resolved (checkedLookup).
  const refused = egress ? checkMerchantUrl(url, egress) : null;
  if (refused !== null) return { kind: "refused", reason: `destination not allowed: ${new URL(url).host || new URL(url).protocol} ${refused}` };
  const timeout = AbortSignal.timeout(timeoutMs);
  const combined = signal ? AbortSignal.any([timeout, signal]) : timeout;
  // One connection pool for this call only, whose every connection is made to checked addresses.
  const guarded = egress ? new Agent({ connect: { lookup: checkedLookup(egress) } }) : undefined;
  try {
    // Bytes are copied into a buffer of their own: fetch takes only ArrayBuffer-backed views.
    const payload = body instanceof Uint8Array ? new Uint8Array(body) : body;
    // undici's own fetch, not the global one: inside the Next.js server the global fetch is
    // patched for its data cache and tracing (dedupeFetch, trace), 2.4% of the worker's busy CPU
    // per capture in a profile (docs/performance.md) for nothing a connector uses. Without
    // `dispatcher` it keeps connections alive on undici's global pool.
    const response = await undiciFetch(url, { method, headers, body: payload, signal: combined, redirect: "manual", ...(guarded ? { dispatcher: guarded } : {}) });
    // An answer from a destination we did not configure is read only so far (an upload's answer is short).
    const text = guarded ? await boundedText(response.body as AsyncIterable<Uint8Array> | null, GUARDED_ANSWER_BYTES) : await response.text();
    return { kind: "response", status: response.status, contentType: response.headers.get("content-type") ?? "", text };
  } catch (error) {
    const refusal = egressRefusalMessage(error);
    if (refusal) return { kind: "refused", reason: refusal };
    if (timeout.aborted) return { kind: "timeout" };
    if (signal?.aborted) return { kind: "aborted" };
    const code = causeCode(error);
    return {
      kind: "network",
      sent: !(code && NOT_SENT_CODES.has(code)),
      message: code ?? (error instanceof Error ? error.message : "network error"),
    };
  } finally {
    void guarded?.close().catch(() => undefined);
  }
}

/** The result for a call that got no usable answer. A time-out is never a decline. */
export function failureFromOutcome(
  outcome: Exclude<SendOutcome, { kind: "response" }>,
  processor: string,
  timeoutMs: number,
): ProcessorResult {
  switch (outcome.kind) {
    case "timeout":
      return {
        status: "failed",
        failure: "indeterminate",
        responsecode: RESPONSE_CODES.timeout,
        message: `${processor} did not answer within ${timeoutMs} ms`,
      };
    case "aborted":
      return {
        status: "failed",
        failure: "indeterminate",
        responsecode: RESPONSE_CODES.timeout,
        message: `the call to ${processor} was cancelled`,
      };
    case "refused":
      // Refused before any connection: nothing reached anyone.
      return { status: "failed", failure: "retryable", responsecode: RESPONSE_CODES.unavailable, message: `${processor}: ${outcome.reason}` };
    case "network":
      return outcome.sent
        ? {
            status: "failed",
            failure: "indeterminate",
            responsecode: RESPONSE_CODES.unavailable,
            message: `${processor}: connection lost (${outcome.message})`,
          }
        : {
            status: "failed",
            failure: "retryable",
            responsecode: RESPONSE_CODES.unavailable,
            message: `${processor} unreachable (${outcome.message})`,
          };
  }
}

/**
 * An answer we could not read (wrong shape, unexpected status), or any HTTP 5xx. Indeterminate
 * either way: a 502 or 504 from a proxy in front of the acquirer says nothing about whether the
 * acquirer acted, so a payout or follow-up is looked up, never sent elsewhere
 * (docs/decisions/0068-money-that-moves-exactly-once-under-faults-reconciliation.md).
 */
export function unreadableAnswer(processor: string, status: number): ProcessorResult {
  return {
    status: "failed",
    failure: "indeterminate",
    responsecode: status >= 500 ? RESPONSE_CODES.unavailable : RESPONSE_CODES.systemError,
    message:
      status >= 500
        ? `${processor} answered HTTP ${status}: whether it acted is unknown`
        : `${processor} answered HTTP ${status} with a body we could not read`,
  };
}

export function basicAuth(user: string, password: string): string {
  return `Basic ${Buffer.from(`${user}:${password}`).toString("base64")}`;
}
