// The Inngest middleware of observability, registered on the one client (lib/inngest/client.ts):
// - every event sent (client.send and step.sendEvent) carries the sender's trace context as
//   `traceparent` in its data, so that the run it starts joins the request's trace;
// - every call of a function (one executor request: discovery or one step) is a span under that
//   context and runs with the run id in the log context; each step.run is a child span;
// - one log line per call (function, step, status, duration) and per run start, end and failure,
//   with the matching metrics.
// It works the same with the embedded executor and an Inngest server: both hand the SDK the
// stored event, data and all.
import { Middleware } from "inngest";
import { log } from "./logger";
import { metrics } from "./metrics";
import { withRequestContext } from "./request-context";
import { contextFromTraceparent, currentTraceparent, inSpan, SpanKind } from "./tracing";

interface CallBody {
  event?: { name?: string; data?: { traceparent?: unknown } };
  ctx?: { attempt?: number };
}

export class ObservabilityMiddleware extends Middleware.BaseMiddleware {
  override readonly id = "cps:observability";

  override transformSendEvent(arg: Middleware.TransformSendEventArgs): Middleware.TransformSendEventArgs {
    const traceparent = currentTraceparent();
    if (!traceparent) return arg;
    return {
      ...arg,
      events: arg.events.map((event) =>
        event.data && typeof event.data === "object" && !("traceparent" in event.data) ? { ...event, data: { ...event.data, traceparent } } : event,
      ),
    };
  }

  override async wrapRequest({ next, fn, runId, requestInfo }: Middleware.WrapRequestArgs): Promise<Middleware.Response> {
    const body = ((await requestInfo.body()) ?? {}) as CallBody;
    const functionId = fn?.id() ?? "unknown";
    const stepId = requestInfo.url.searchParams.get("stepId") ?? "step";
    const started = performance.now();
    return withRequestContext({ runId, functionId }, () =>
      inSpan(
        `inngest ${functionId}`,
        {
          kind: SpanKind.SERVER,
          parent: contextFromTraceparent(body.event?.data?.traceparent),
          attributes: { "inngest.function": functionId, "inngest.run_id": runId, "inngest.step": stepId, "inngest.attempt": body.ctx?.attempt ?? 0 },
        },
        async (span) => {
          const response = await next();
          const seconds = (performance.now() - started) / 1000;
          const outcome = response.status === 200 || response.status === 206 ? "ok" : response.status >= 500 ? "retry" : "failed";
          span.setAttribute("http.response.status_code", response.status);
          metrics().jobs.inc({ function: functionId, outcome });
          metrics().jobDuration.observe({ function: functionId }, seconds);
          log("jobs").info(
            { event: "job.call", stepId, attempt: body.ctx?.attempt ?? 0, status: response.status, outcome, durationMs: Math.round(seconds * 1000) },
            `job call ${functionId} ${outcome}`,
          );
          return response;
        },
      ),
    );
  }

  override async wrapStepHandler({ stepInfo, next }: Middleware.WrapStepHandlerArgs): Promise<unknown> {
    const stepName = String(stepInfo.options.name ?? stepInfo.options.id);
    return inSpan(`step ${stepName}`, { attributes: { "inngest.step": stepName, "inngest.step_type": String(stepInfo.stepType) } }, () => next());
  }

  override onRunStart({ ctx }: Middleware.OnRunStartArgs): void {
    log("jobs").info({ event: "job.start", eventName: ctx.event.name }, `job ${ctx.runId} started`);
  }

  override onRunComplete(): void {
    log("jobs").info({ event: "job.end" }, "job finished");
  }

  override onRunError({ error, isFinalAttempt, fn }: Middleware.OnRunErrorArgs): void {
    if (isFinalAttempt) metrics().jobFailures.inc({ function: fn.id() });
    log("jobs")[isFinalAttempt ? "error" : "warn"]({ event: isFinalAttempt ? "job.failed" : "job.error", err: error, final: isFinalAttempt }, "job failed");
  }
}
