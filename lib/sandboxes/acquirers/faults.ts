// Fault modes of the acquirer sandboxes (a sandbox-only extension: wrapped only when the sandboxes
// run with their extensions on), armed per test (tests/faults/): the acquirer acts and the answer is
// lost, acts and answers 502, hangs past the caller's time-out before acting, acts only after the
// caller gave up (a late act: Clearhaus' and Finaro's documented slow answers), or receives the
// request twice (a duplicate on the wire) and answers the second. A fault matches a request by
// processor, operation and amount, and fires a given number of times. Nothing arms a fault unless a
// test does; unarmed, the wrapper only classifies the request.
import type { AcquirerName } from "./acquirer-name";
import { holdUntilAborted, type FetchHandler } from "./serve";
import { GATEWAY } from "./bambora/reference";

type ProcessorName = AcquirerName;

/** Finaro's `O` codes ([AM-CR] ACTIONS; 101 the retrieval) as the operations a fault matches. */
const FINARO_OPERATIONS: Record<string, AcquirerOperation> = {
  "1": "authorize",
  "2": "authorize",
  "3": "capture",
  "4": "void",
  "5": "refund",
  "35": "payout",
  "101": "lookup",
};

export type AcquirerFaultMode =
  | "answer_lost_after_acting"
  | "502_after_acting"
  | "hang_before_acting"
  /** Holds the request until the caller gives up (its time-out), then acts `actDelayMs` later; nobody hears the answer. */
  | "act_after_caller_gave_up"
  /** Answers the acquirer's own refusal without acting (Finaro z2=-9, Clearhaus 40000, Bambora 314): e.g. a look-up refused. */
  | "refused"
  | "duplicate_request";
export type AcquirerOperation = "authorize" | "capture" | "refund" | "void" | "payout" | "lookup";

export interface AcquirerFault {
  mode: AcquirerFaultMode;
  operation: AcquirerOperation;
  processor?: ProcessorName;
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

interface Classified {
  operation: AcquirerOperation;
  amount?: number;
}

async function classify(processor: ProcessorName, request: Request): Promise<Classified | undefined> {
  const path = new URL(request.url).pathname;
  // Reads that find a request again: the sandboxes' searches, and Bambora's read of a pre-authorization (its completions).
  if (request.method === "GET")
    return path.endsWith("/transactions") || (processor === "bambora" && /^\/v1\/payments\/\d+$/.test(path))
      ? { operation: "lookup" }
      : undefined;
  if (request.method !== "POST") return undefined;
  const text = await request.clone().text();
  const number = (value: unknown) => (value === undefined || value === null || value === "" ? undefined : Number(value));
  switch (processor) {
    case "finaro": {
      const fields = Object.fromEntries(new URLSearchParams(text));
      const operation = FINARO_OPERATIONS[fields.O ?? ""];
      return operation ? { operation, amount: number(fields.a4) } : undefined;
    }
    case "clearhaus": {
      const fields = Object.fromEntries(new URLSearchParams(text));
      const amount = number(fields.amount);
      if (path === "/authorizations") return { operation: "authorize", amount };
      if (path === "/credits") return { operation: "payout", amount };
      const action = /\/(captures|refunds|voids)$/.exec(path)?.[1];
      return action
        ? { operation: ({ captures: "capture", refunds: "refund", voids: "void" } as const)[action as "captures"], amount }
        : undefined;
    }
    case "bambora": {
      // Bambora North America: decimal dollars (its accounts are CAD or USD), faults match minor units.
      let body: { amount?: unknown } = {};
      try {
        body = text ? (JSON.parse(text) as typeof body) : {};
      } catch {
        return undefined;
      }
      const amount = typeof body.amount === "number" ? Math.round(body.amount * 100) : undefined;
      if (path === "/v1/payments") return { operation: "authorize", amount };
      if (path === "/v1/reports") return { operation: "lookup" };
      const action = /^\/v1\/payments\/[^/]+\/(completions|returns|void)$/.exec(path)?.[1];
      return action
        ? { operation: ({ completions: "capture", returns: "refund", void: "void" } as const)[action as "completions"], amount }
        : undefined;
    }
  }
}

function take(processor: ProcessorName, request: Classified): ArmedFault | undefined {
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

/** The acquirer's own "malformed request" answer, in its format (docs/acquirers.md). */
function refusal(processor: ProcessorName): Response {
  switch (processor) {
    case "finaro":
      // Finaro's recorded refusals: lower-case keys, no K ([AM-CR-U] "Card cannot be identified").
      return new Response(new URLSearchParams({ z2: "-9", z3: "Request is malformed" }).toString(), {
        status: 200,
        headers: { "content-type": "application/x-www-form-urlencoded" },
      });
    case "clearhaus":
      return Response.json({ status: { code: 40000, message: "parameter is invalid" } }, { status: 400 });
    case "bambora":
      // Bambora North America's ErrorResponse for a malformed request (gateway code 314, category 3).
      return Response.json(
        {
          code: GATEWAY.missingOrInvalid.code,
          category: GATEWAY.missingOrInvalid.category,
          message: GATEWAY.missingOrInvalid.message,
          reference: "",
        },
        { status: GATEWAY.missingOrInvalid.status },
      );
  }
}

/** Wraps a sandbox's handler with the armed faults. `hangMs` bounds a hold when the caller never gives up. */
export function withAcquirerFaults(processor: ProcessorName, handler: FetchHandler, hangMs: number): FetchHandler {
  return withClassifiedAcquirerFaults(
    processor,
    (request) => classify(processor, request),
    () => refusal(processor),
    handler,
    hangMs,
  );
}

/** What a fault matches in a request: its operation and amount (minor units). */
export type AcquirerFaultClassifier = (request: Request) => Promise<{ operation: AcquirerOperation; amount?: number } | undefined>;

/**
 * The same wrapper for a sandbox that reads its own wire format: a second platform of one processor
 * (bambora's Worldline Direct) brings its classifier and its own refusal, and matches faults armed
 * for that processor.
 */
export function withClassifiedAcquirerFaults(
  processor: ProcessorName,
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
