// One call request to the serve endpoint, as an Inngest server makes it, and what its answer means.
import canonicalize from "canonicalize";
import type { CallRequestBody, OutgoingOp, SerializedError } from "./protocol";
import { opsBodySchema, serializedErrorSchema } from "./protocol";
import { signatureHeader } from "./signature";

export type CallOutcome =
  /** 200: the function returned. */
  | { kind: "complete"; output: unknown; requestVersion?: number }
  /** 206: steps ran or were found. */
  | { kind: "ops"; ops: OutgoingOp[]; retryAfter: string | null; requestVersion?: number }
  /** Anything else: a function-level error, an SDK problem, or no answer. */
  | { kind: "error"; error: SerializedError; retriable: boolean; retryAfter: string | null; status?: number };

/**
 * A call handed to the SDK's comm handler in this process directly, as the SDK's own `connect`
 * transport does (an InngestCommHandler with skipSignatureValidation whose handler hands over the
 * body object and takes the raw answer): no canonical JSON, no signatures, no Request or Response.
 * Nothing crosses a trust boundary: the caller and the handler are one process. The answer is read
 * exactly as an HTTP answer is (status, x-inngest-* headers, body text).
 */
export type DirectInvoke = (call: DirectCall) => Promise<DirectAnswer>;

export interface DirectCall {
  functionId: string;
  /** "step" for discovery, else the hashed id of the one step to run. */
  stepId: string;
  body: CallRequestBody;
}

export interface DirectAnswer {
  status: number;
  /** Header names as the SDK writes them; read case-insensitively. */
  headers: Record<string, string>;
  body: string;
}

export interface CallFunctionOptions {
  serveUrl: string;
  signingKey: string;
  functionId: string;
  /** "step" for discovery, else the hashed id of the one step to run. */
  stepId: string;
  body: CallRequestBody;
  timeoutMs: number;
  /**
   * The serve handler itself, when it lives in this process: the request is handed to it as a
   * Request instead of going out over loopback HTTP. The same signed request and the same answer
   * as over HTTP, without two HTTP stacks and Next's routing around it (docs/performance.md:
   * about a fifth of a busy worker's CPU). Absent: fetch to `serveUrl`, as an Inngest server calls.
   */
  handler?: ServeHandler;
  /** The direct transport (DirectInvoke); when given, `handler`, `serveUrl` and `signingKey` are not used. */
  invoke?: DirectInvoke;
}

/** A serve endpoint's handler as a function: the Request an Inngest server would send, its Response. */
export type ServeHandler = (request: Request) => Promise<Response>;

/** The handler's answer, or a TimeoutError after `timeoutMs` (the handler runs on, as a server's would). */
async function callInProcess<T>(answer: Promise<T>, timeoutMs: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new DOMException(`The operation was aborted due to timeout`, "TimeoutError")), timeoutMs);
  });
  try {
    return await Promise.race([answer, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/** An answer of either transport, as the outcome rules read it. */
interface RawAnswer {
  status: number;
  header(name: string): string | null;
  text: string;
}

function noAnswer(error: unknown): CallOutcome {
  const message = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  return {
    kind: "error",
    error: { name: "CallFailed", message: `no answer from the serve endpoint: ${message}` },
    retriable: true,
    retryAfter: null,
  };
}

/** One call through the direct transport: the body object in, the raw answer out. */
async function callDirect(invoke: DirectInvoke, options: CallFunctionOptions): Promise<CallOutcome> {
  let answer: DirectAnswer;
  try {
    answer = await callInProcess(invoke({ functionId: options.functionId, stepId: options.stepId, body: options.body }), options.timeoutMs);
  } catch (error) {
    return noAnswer(error);
  }
  const headers = new Map(Object.entries(answer.headers).map(([name, value]) => [name.toLowerCase(), String(value)]));
  return outcomeOf({ status: answer.status, header: (name) => headers.get(name) ?? null, text: answer.body });
}

function errorFrom(value: unknown, fallback: string): SerializedError {
  const parsed = serializedErrorSchema.safeParse(value);
  if (parsed.success && (parsed.data.message || parsed.data.name)) return parsed.data;
  return { name: "Error", message: fallback };
}

export async function callFunction(options: CallFunctionOptions): Promise<CallOutcome> {
  if (options.invoke) return callDirect(options.invoke, options);
  const body = canonicalize(options.body);
  if (body === undefined) throw new Error("the call body cannot be serialized");
  const url = new URL(options.serveUrl);
  url.searchParams.set("fnId", options.functionId);
  url.searchParams.set("stepId", options.stepId);
  let response: Response;
  let text: string;
  try {
    const init: RequestInit = {
      method: "POST",
      headers: {
        "content-type": "application/json",
        // Uncompressed: on loopback gzip only costs CPU on both ends (Next compresses answers to any
        // client that accepts it; profiled at 4% of a busy worker's CPU, bench inngest).
        "accept-encoding": "identity",
        // Signed with the real time: the SDK accepts signatures within 5 minutes of its own clock.
        "x-inngest-signature": signatureHeader({ body, signingKey: options.signingKey, now: new Date() }),
        "x-run-id": options.body.ctx.run_id,
        "x-inngest-step-id": options.stepId,
      },
      body,
      redirect: "manual",
    };
    response = options.handler
      ? await callInProcess(options.handler(new Request(url, init)), options.timeoutMs)
      : await fetch(url, { ...init, signal: AbortSignal.timeout(options.timeoutMs) });
    text = await response.text();
  } catch (error) {
    return noAnswer(error);
  }
  return outcomeOf({ status: response.status, header: (name) => response.headers.get(name), text });
}

/** What an answer means, whichever transport brought it (the rules of inngest-protocol §2). */
function outcomeOf(response: RawAnswer): CallOutcome {
  const { text } = response;
  const retryAfter = response.header("retry-after");
  const versionHeader = Number(response.header("x-inngest-req-version"));
  const requestVersion = Number.isInteger(versionHeader) && versionHeader > 0 ? versionHeader : undefined;
  let json: unknown = null;
  try {
    json = text ? JSON.parse(text) : null;
  } catch {
    json = undefined;
  }
  if (!response.header("x-inngest-sdk")) {
    return {
      kind: "error",
      error: { name: "NotFromSdk", message: `HTTP ${response.status} without x-inngest-sdk: the answer did not come from the Inngest SDK` },
      retriable: true,
      retryAfter,
      status: response.status,
    };
  }
  if (response.status === 200) return { kind: "complete", output: json ?? null, requestVersion };
  if (response.status === 206) {
    const ops = opsBodySchema.safeParse(json);
    if (ops.success && ops.data.length > 0) return { kind: "ops", ops: ops.data, retryAfter, requestVersion };
    return {
      kind: "error",
      error: { name: "BadOps", message: "206 without ops the executor can read" },
      retriable: true,
      retryAfter,
      status: 206,
    };
  }
  const noRetry = response.header("x-inngest-no-retry") === "true";
  return { kind: "error", error: errorFrom(json, `HTTP ${response.status}`), retriable: !noRetry, retryAfter, status: response.status };
}
