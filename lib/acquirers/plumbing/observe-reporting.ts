// One log line, one metric sample and one span per reporting call (disputes and settlements), as
// ./observe-connector.ts does for the gateway calls: processor, operation, duration and outcome
// ("ok", "refused" for refused credentials, "destination-refused" when a link of the acquirer's
// answer pointed where the egress guard refuses to go, "error"). A refused destination also gets a
// line of its own with the host, for whoever watches the service's egress. Arguments and answers
// never reach a line: credentials ride in them.
import { ReportingApiError, type AcquirerReportingClient } from "../contract";
import type { AcquirerName } from "../names";
import type { Mode } from "../../mode";
import { log } from "../../observability/logger";
import { metrics } from "../../observability/metrics";
import { inSpan, SpanKind } from "../../observability/tracing";

export function observeReportingClient<T>(client: AcquirerReportingClient<T>, processor: AcquirerName, mode: Mode): AcquirerReportingClient<T> {
  const observed: Record<string, unknown> = {};
  for (const [method, original] of Object.entries(client) as [string, unknown][]) {
    if (typeof original !== "function") continue;
    const operation = `reporting.${method}`;
    observed[method] = (...args: unknown[]) =>
      inSpan(`acquirer ${processor} ${operation}`, { kind: SpanKind.CLIENT, attributes: { "cps.processor": processor, "cps.operation": operation } }, async (span) => {
        const started = performance.now();
        let outcome = "error";
        try {
          const result: unknown = await (original as (...input: unknown[]) => Promise<unknown>).apply(client, args);
          outcome = "ok";
          return result;
        } catch (error) {
          if (error instanceof ReportingApiError && error.credentialsRefused) outcome = "refused";
          if (error instanceof ReportingApiError && error.refusedDestination) {
            outcome = "destination-refused";
            log("processors").warn(
              { event: "acquirer.egress_refused", processor, mode, operation, host: error.refusedDestination.host, reason: error.refusedDestination.reason },
              `${processor} ${operation}: a link in the acquirer's answer was not followed: ${error.refusedDestination.reason}`,
            );
          }
          throw error;
        } finally {
          const durationMs = performance.now() - started;
          span.setAttribute("cps.outcome", outcome);
          const labels = { processor, operation, outcome, mode };
          metrics().acquirerCalls.inc(labels);
          metrics().acquirerDuration.observe(labels, durationMs / 1000);
          log("processors")[outcome === "ok" ? "info" : "warn"](
            { event: "acquirer.reporting", processor, mode, operation, outcome, durationMs: Math.round(durationMs) },
            `${processor} ${operation} ${outcome}`,
          );
        }
      });
  }
  return observed as unknown as AcquirerReportingClient<T>;
}
