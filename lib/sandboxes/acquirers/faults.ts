// Fault modes of the acquirer sandboxes, armed per test (tests/faults/): the acquirer acts and the
// answer is lost, acts and answers 502, hangs past the caller's time-out before acting, acts only
// after the caller gave up (a late act: Clearhaus' and Finaro's documented slow answers), or
// receives the request twice (a duplicate on the wire) and answers the second. A fault matches a
// request by processor, operation and amount, and fires a given number of times. Nothing arms a
// fault unless a test does; unarmed, the wrapper only classifies the request.
import type { ProcessorName } from "../../processors/types";
import { FINARO_OPERATION } from "../../processors/finaro/transformers";
import { holdUntilAborted, type FetchHandler } from "./serve";

export type AcquirerFaultMode =
  | "answer_lost_after_acting"
  | "502_after_acting"
  | "hang_before_acting"
  /** Holds the request until the caller gives up (its time-out), then acts `actDelayMs` later; nobody hears the answer. */
  | "act_after_caller_gave_up"
  /** Answers the acquirer's own refusal without acting (Finaro Z2=-9, Clearhaus 40000, Bambora InvalidRequest): e.g. a look-up refused. */
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
  if (request.method === "GET") return path.endsWith("/transactions") ? { operation: "lookup" } : undefined;
  if (request.method !== "POST") return undefined;
  const text = await request.clone().text();
  const number = (value: unknown) => (value === undefined || value === null || value === "" ? undefined : Number(value));
  switch (processor) {
    case "finaro": {
      const fields = Object.fromEntries(new URLSearchParams(text));
      const operation = (
        {
          [FINARO_OPERATION.authorize]: "authorize",
          [FINARO_OPERATION.sale]: "authorize",
          [FINARO_OPERATION.capture]: "capture",
          [FINARO_OPERATION.refund]: "refund",
          [FINARO_OPERATION.void]: "void",
          [FINARO_OPERATION.payout]: "payout",
          [FINARO_OPERATION.retrieve]: "lookup",
        } as Record<string, AcquirerOperation>
      )[fields.O ?? ""];
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
      let body: { amount?: unknown; order?: { amount?: unknown } } = {};
      try {
        body = text ? (JSON.parse(text) as typeof body) : {};
      } catch {
        return undefined;
      }
      if (path === "/authorize") return { operation: "authorize", amount: number(body.order?.amount) };
      if (path === "/payouts") return { operation: "payout", amount: number(body.order?.amount) };
      const action = /\/(capture|credit|delete)$/.exec(path)?.[1];
      return action
        ? {
            operation: ({ capture: "capture", credit: "refund", delete: "void" } as const)[action as "capture"],
            amount: number(body.amount),
          }
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
      return new Response(new URLSearchParams({ Z2: "-9", Z3: "Request is malformed", Z6: "30" }).toString(), {
        status: 200,
        headers: { "content-type": "application/x-www-form-urlencoded" },
      });
    case "clearhaus":
      return Response.json({ status: { code: 40000, message: "parameter is invalid" } }, { status: 400 });
    case "bambora":
      return Response.json({ meta: { result: false, action: { code: "100", source: "ePay", type: "InvalidRequest" } } }, { status: 400 });
  }
}

/** Wraps a sandbox's handler with the armed faults. `hangMs` bounds a hold when the caller never gives up. */
export function withAcquirerFaults(processor: ProcessorName, handler: FetchHandler, hangMs: number): FetchHandler {
  return async (request) => {
    if (!state.__cpsAcquirerFaults?.length) return handler(request);
    const classified = await classify(processor, request);
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
        return refusal(processor);
      case "duplicate_request":
        await handler(request.clone());
        return handler(request);
    }
  };
}
