// One log line, one metric sample and one span per acquirer call: processor, account, operation, duration
// and outcome. Wraps the connector the registry hands out, so every connector is covered the same
// way. Only the outcome is looked at: requests and answers (card data) never reach a line.
import type { ProcessorConnector, ProcessorResult } from "../contract";
import { log } from "../../observability/logger";
import { metrics } from "../../observability/metrics";
import { inSpan, SpanKind } from "../../observability/tracing";

const OPERATIONS = [
  "authorize",
  "capture",
  "refund",
  "void",
  "payout",
  "cardUpdates",
  "lookupOperation",
  "checkConnection",
] as const;

function outcomeOf(result: unknown): string {
  if (result === undefined) return "not-found";
  if (Array.isArray(result)) return "ok";
  const { status, failure } = (result ?? {}) as Partial<ProcessorResult>;
  if (status === "approved" || status === "declined") return status;
  if (status === "failed") return failure ?? "failed";
  return "ok";
}

export function observeConnector(connector: ProcessorConnector): ProcessorConnector {
  const observed: Record<string, unknown> = { name: connector.name, accountId: connector.accountId, mode: connector.mode, lookups: connector.lookups };
  // Every method, including ones added to the interface later; an optional one stays absent.
  for (const operation of new Set([...OPERATIONS, ...Object.keys(connector)])) {
    const original = (connector as unknown as Record<string, unknown>)[operation];
    if (typeof original !== "function") continue;
    observed[operation] = (...args: unknown[]) =>
      inSpan(
        `acquirer ${connector.name} ${operation}`,
        {
          kind: SpanKind.CLIENT,
          attributes: { "cps.processor": connector.name, "cps.operation": operation, "cps.acquirer_account": connector.accountId },
        },
        async (span) => {
          const started = performance.now();
          let outcome = "error";
          try {
            const result: unknown = await original.apply(connector, args);
            outcome = outcomeOf(result);
            const responsecode = (result as ProcessorResult | undefined)?.responsecode;
            if (responsecode) span.setAttribute("cps.responsecode", responsecode);
            return result;
          } finally {
            const durationMs = performance.now() - started;
            span.setAttribute("cps.outcome", outcome);
            const labels = { processor: connector.name, operation, outcome, mode: connector.mode };
            metrics().acquirerCalls.inc(labels);
            metrics().acquirerDuration.observe(labels, durationMs / 1000);
            log("processors")[outcome === "error" || outcome === "indeterminate" ? "warn" : "info"](
              // The account's id, never its credentials: which merchant account the call went out under.
              {
                event: "acquirer.call",
                processor: connector.name,
                acquirerAccountId: connector.accountId,
                mode: connector.mode,
                operation,
                outcome,
                durationMs: Math.round(durationMs),
              },
              `${connector.name} ${operation} ${outcome}`,
            );
          }
        },
      );
  }
  return observed as unknown as ProcessorConnector;
}
