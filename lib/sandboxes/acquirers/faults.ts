// Fault modes of the acquirer sandboxes (a sandbox-only extension: wrapped only when the sandboxes
// run with their extensions on), armed per test (tests/faults/): the acquirer acts and the answer is
// lost, acts and answers 502, hangs past the caller's time-out before acting, acts only after the
// caller gave up (a late act: Clearhaus' and Finaro's documented slow answers), or receives the
// request twice (a duplicate on the wire) and answers the second. A fault matches a request by
// processor, operation and amount, and fires a given number of times. Nothing arms a fault unless a
// test does; unarmed, the wrapper only classifies the request.
// Each sandbox says which operation a request is and what its acquirer's refusal looks like
// (SandboxFaults, in lib/sandboxes/acquirers/<name>/sandbox.ts).
import type { AcquirerName } from "../../acquirers/names";
import type { FollowUpType } from "../../payments/follow-ups/kinds";
import { holdUntilAborted, type FetchHandler } from "./serve";

export type AcquirerFaultMode =
  | "answer_lost_after_acting"
  | "502_after_acting"
  | "hang_before_acting"
  /** Holds the request until the caller gives up (its time-out), then acts `actDelayMs` later; nobody hears the answer. */
  | "act_after_caller_gave_up"
  /** Answers the acquirer's own refusal without acting (Finaro z2=-9, Clearhaus 40000, Bambora 314): e.g. a look-up refused. */
  | "refused"
  | "duplicate_request";
export type AcquirerOperation = "authorize" | FollowUpType | "payout" | "lookup";

export interface AcquirerFault {
  mode: AcquirerFaultMode;
  operation: AcquirerOperation;
  processor?: AcquirerName;
  /** Minor units; absent: any amount (a void carries none). */
  amount?: number;
  /** How many matching requests it hits (default 1). */
  times?: number;
  /** act_after_caller_gave_up: how long after the caller gave up the acquirer acts (default 300 ms). */
  actDelayMs?: number;
}

interface ArmedFault extends AcquirerFault {
  remaining: number;
  hits: number;
}

/**
 * How long after the caller gave up a late act happens, unless the test says. Long enough that the
 * caller's own follow-up (its look-up right after the time-out) comes first even on a loaded CI
 * machine: 300 ms was not, and the look-up then found the act, which hides the late-act case.
 */
const LATE_ACT_DELAY_MS = 2_000;

const state = globalThis as unknown as { __cpsAcquirerFaults?: ArmedFault[]; __cpsLateActs?: Set<Promise<unknown>> };

/** Tests only. Returns a handle telling how often the fault fired. */
export function armAcquirerFault(fault: AcquirerFault): { hits: () => number } {
  const armed: ArmedFault = { ...fault, remaining: fault.times ?? 1, hits: 0 };
  (state.__cpsAcquirerFaults ??= []).push(armed);
  return { hits: () => armed.hits };
}

export function clearAcquirerFaults(): void {
  state.__cpsAcquirerFaults = [];
}

/** Tests only: resolves when every late act started so far has happened at the acquirer. */
export async function lateActsDone(): Promise<void> {
  await Promise.all([...(state.__cpsLateActs ?? [])]);
}

/** A request as a fault matches it: the operation, and its amount in minor units where it has one. */
export interface ClassifiedRequest {
  operation: AcquirerOperation;
  amount?: number;
}

/** What a sandbox tells the fault modes about its acquirer's wire format. */
export interface SandboxFaults {
  /** The operation of a request (its body read as text; "" for a GET), or undefined when no fault applies to it. */
  classify(request: { method: string; path: string; body: string }): ClassifiedRequest | undefined;
  /** The acquirer's own "malformed request" answer, in its format (docs/acquirers.md). */
  refusal(): Response;
}

/** A numeric field of a request (an amount in minor units), or undefined when it is absent or empty. */
export function fieldNumber(value: unknown): number | undefined {
  return value === undefined || value === null || value === "" ? undefined : Number(value);
}

async function classify(faults: SandboxFaults, request: Request): Promise<ClassifiedRequest | undefined> {
  const path = new URL(request.url).pathname;
  // The sandboxes' searches that find a request again.
  if (request.method === "GET" && path.endsWith("/transactions")) return { operation: "lookup" };
  if (request.method !== "GET" && request.method !== "POST") return undefined;
  return faults.classify({ method: request.method, path, body: request.method === "POST" ? await request.clone().text() : "" });
}

function take(processor: AcquirerName, request: ClassifiedRequest): ArmedFault | undefined {
  const fault = state.__cpsAcquirerFaults?.find(
    (candidate) =>
      candidate.remaining > 0 &&
      candidate.operation === request.operation &&
      (candidate.processor === undefined || candidate.processor === processor) &&
      (candidate.amount === undefined || candidate.amount === request.amount),
  );
  if (!fault) return undefined;
  fault.remaining -= 1;
  fault.hits += 1;
  return fault;
}

/** Wraps a sandbox's handler with the armed faults. `hangMs` bounds a hold when the caller never gives up. */
export function withAcquirerFaults(processor: AcquirerName, faults: SandboxFaults, handler: FetchHandler, hangMs: number): FetchHandler {
  return withClassifiedAcquirerFaults(processor, (request) => classify(faults, request), () => faults.refusal(), handler, hangMs);
}

/** What a fault matches in a request: its operation and amount (minor units). */
export type AcquirerFaultClassifier = (request: Request) => Promise<ClassifiedRequest | undefined>;

/**
 * The same wrapper for a sandbox that reads its own wire format: a second platform of one processor
 * (bambora's Worldline Direct) brings its classifier and its own refusal, and matches faults armed
 * for that processor.
 */
export function withClassifiedAcquirerFaults(
  processor: AcquirerName,
  classifyRequest: AcquirerFaultClassifier,
  refuse: () => Response,
  handler: FetchHandler,
  hangMs: number,
): FetchHandler {
  return async (request) => {
    if (!state.__cpsAcquirerFaults?.length) return handler(request);
    const classified = await classifyRequest(request);
    const fault = classified ? take(processor, classified) : undefined;
    if (!fault) return handler(request);
    switch (fault.mode) {
      case "hang_before_acting":
        await holdUntilAborted(request.signal, hangMs);
        return new Response(null, { status: 504 });
      case "act_after_caller_gave_up": {
        // The body is read now: after the caller hangs up the request's stream is gone.
        const body = request.method === "GET" ? undefined : await request.clone().text();
        const late = new Request(request.url, { method: request.method, headers: request.headers, body });
        await holdUntilAborted(request.signal, hangMs);
        const act = new Promise((resolve) => setTimeout(resolve, fault.actDelayMs ?? LATE_ACT_DELAY_MS)).then(() => handler(late));
        (state.__cpsLateActs ??= new Set()).add(act);
        const forget = () => state.__cpsLateActs?.delete(act);
        act.then(forget, forget);
        await act;
        return new Response(null, { status: 504 });
      }
      case "answer_lost_after_acting":
        await handler(request.clone());
        await holdUntilAborted(request.signal, hangMs);
        return new Response(null, { status: 504 });
      case "502_after_acting":
        await handler(request.clone());
        return new Response("bad gateway", { status: 502, headers: { "content-type": "text/plain" } });
      case "refused":
        return refuse();
      case "duplicate_request":
        await handler(request.clone());
        return handler(request);
    }
  };
}
