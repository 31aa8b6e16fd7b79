// The one place connectors talk HTTP: a bounded time-out on every call, and network failures sorted
// into "nothing happened" (retryable) and "we cannot know" (indeterminate). Never logs bodies: they
// carry card data. The endpoints the operator configured (or the built-in sandboxes) are called as
// they are; a destination taken from an acquirer's answer (a link to another host, such as an
// evidence file's upload link) goes through the egress guard of every address the service does not
// configure itself (`egress`: lib/egress, checked before the request and again when its name is
// resolved, so a DNS answer cannot switch it; docs/decisions/0211-links-in-acquirer-answers-go-through-the-egress-guard.md).
import { Agent, request } from "undici";
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

/** The system's or undici's code of a failed call (request() throws it as is; a wrapped one carries it as its cause). */
function errorCode(error: unknown): string | undefined {
  for (const candidate of [error, error && typeof error === "object" && "cause" in error ? (error as { cause?: unknown }).cause : undefined]) {
    if (candidate && typeof candidate === "object" && "code" in candidate && typeof (candidate as { code?: unknown }).code === "string") {
      return (candidate as { code: string }).code;
    }
  }
  return undefined;
}

/** The most of an answer read from a destination taken from an acquirer's answer. */
const GUARDED_ANSWER_BYTES = 64 * 1024;

export async function send({ url, method, headers, body, timeoutMs, signal, egress }: SendOptions): Promise<SendOutcome> {
  // Scheme and IP literals before any connection; host names when they are resolved (checkedLookup).
  const refused = egress ? checkMerchantUrl(url, egress) : null;
  if (refused !== null) return { kind: "refused", reason: `destination not allowed: ${new URL(url).host || new URL(url).protocol} ${refused}` };
  // A timer of our own, cleared when the call ends: AbortSignal.timeout() makes a transferable
  // signal and fires on every call long after it ended (a DOMException each time).
  const timeout = new AbortController();
  const timer = setTimeout(() => timeout.abort(), timeoutMs);
  const combined = signal ? AbortSignal.any([timeout.signal, signal]) : timeout.signal;
  // One connection pool for this call only, whose every connection is made to checked addresses.
  const guarded = egress ? new Agent({ connect: { lookup: checkedLookup(egress) } }) : undefined;
  try {
    // undici's request(), not fetch(): a connector needs a status, a content type and a text, and
    // fetch's WHATWG Request, Response and streams around each call cost about 0.3 ms of CPU more
    // per call (docs/performance.md, issue 37); inside the Next.js server the global fetch is also
    // patched for its data cache and tracing. Redirects are not followed (the 3xx is the answer),
    // no header is added, and nothing is decompressed (none is asked for). Without `dispatcher` it
    // keeps connections alive on undici's global pool.
    const answer = await request(url, { method, headers, body, signal: combined, ...(guarded ? { dispatcher: guarded } : {}) });
    // An answer from a destination we did not configure is read only so far (an upload's answer is short).
    const text = guarded ? await boundedText(answer.body, GUARDED_ANSWER_BYTES) : await answer.body.text();
    const contentType = answer.headers["content-type"];
    return { kind: "response", status: answer.statusCode, contentType: (Array.isArray(contentType) ? contentType[0] : contentType) ?? "", text };
  } catch (error) {
    const refusal = egressRefusalMessage(error);
    if (refusal) return { kind: "refused", reason: refusal };
    if (timeout.signal.aborted) return { kind: "timeout" };
    if (signal?.aborted) return { kind: "aborted" };
    const code = errorCode(error);
    return {
      kind: "network",
      sent: !(code && NOT_SENT_CODES.has(code)),
      message: code ?? (error instanceof Error ? error.message : "network error"),
    };
  } finally {
    clearTimeout(timer);
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
