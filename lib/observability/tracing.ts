// OpenTelemetry traces, on when OTEL_EXPORTER_OTLP_ENDPOINT is set (instrumentation.ts starts
// them). Spans are made by hand where the work is ours (a merchant request, an Inngest function
// call and its steps, an acquirer call, a notification delivery): no auto-instrumentation, so that
// no span attribute can carry a URL with card data or a request body.
// The trace context travels with Inngest events as `traceparent` in the event data (see
// ./inngest-middleware.ts), so that the function run a request started joins the request's trace.
import { context, INVALID_SPAN_CONTEXT, propagation, SpanStatusCode, trace, type Attributes, type Context, type Span, SpanKind } from "@opentelemetry/api";
import { W3CTraceContextPropagator } from "@opentelemetry/core";
import { OTLPTraceExporter } from "@opentelemetry/exporter-trace-otlp-http";
import { resourceFromAttributes } from "@opentelemetry/resources";
import { BatchSpanProcessor } from "@opentelemetry/sdk-trace-base";
import { NodeTracerProvider } from "@opentelemetry/sdk-trace-node";
import { config } from "../env";

const state = globalThis as unknown as { __cpsTracerProvider?: NodeTracerProvider };

export interface StartTracingOptions {
  /** OTLP/HTTP base URL; spans are posted (JSON) to <endpoint>/v1/traces. Default: OTEL_EXPORTER_OTLP_ENDPOINT. */
  endpoint?: string;
  serviceName?: string;
  /** Milliseconds between exports (default 1000). */
  exportDelayMs?: number;
}

/** Starts exporting spans; does nothing without an endpoint or when already started. */
export function startTracing(options: StartTracingOptions = {}): boolean {
  if (state.__cpsTracerProvider) return true;
  const endpoint = options.endpoint ?? config().OTEL_EXPORTER_OTLP_ENDPOINT;
  if (!endpoint) return false;
  const exporter = new OTLPTraceExporter({ url: `${endpoint.replace(/\/+$/, "")}/v1/traces` });
  const provider = new NodeTracerProvider({
    resource: resourceFromAttributes({ "service.name": options.serviceName ?? config().OTEL_SERVICE_NAME }),
    spanProcessors: [new BatchSpanProcessor(exporter, { scheduledDelayMillis: options.exportDelayMs ?? 1000 })],
  });
  provider.register({ propagator: new W3CTraceContextPropagator() });
  state.__cpsTracerProvider = provider;
  return true;
}

/** Exports every finished span now (tests; shutdown). */
export async function flushTracing(): Promise<void> {
  await state.__cpsTracerProvider?.forceFlush();
}

export async function stopTracing(): Promise<void> {
  const provider = state.__cpsTracerProvider;
  state.__cpsTracerProvider = undefined;
  await provider?.shutdown();
  trace.disable();
  context.disable();
  propagation.disable();
}

function tracer() {
  return trace.getTracer("card-payment-service");
}

export interface SpanOptions {
  attributes?: Attributes;
  kind?: SpanKind;
  /** The parent; default: the active span. */
  parent?: Context;
}

/** What `fn` gets while tracing is off: a span that records nothing (the API's own no-op span). */
const NON_RECORDING_SPAN = trace.wrapSpanContext(INVALID_SPAN_CONTEXT);

/** Whether spans are recorded and exported in this process (startTracing ran with an endpoint). */
export function tracingEnabled(): boolean {
  return state.__cpsTracerProvider !== undefined;
}

/**
 * Runs `fn` inside a new active span; the span ends (with an error status if `fn` throws) when `fn`
 * settles. Without a trace exporter `fn` simply runs: the API's no-op tracer would still make a
 * context and a span object per call, a measurable share of a merchant request's CPU
 * (docs/performance.md, "Web-process CPU per request").
 */
export async function inSpan<T>(name: string, options: SpanOptions, fn: (span: Span) => Promise<T>): Promise<T> {
  if (!tracingEnabled()) return fn(NON_RECORDING_SPAN);
  return tracer().startActiveSpan(name, { attributes: options.attributes, kind: options.kind }, options.parent ?? context.active(), async (span) => {
    try {
      return await fn(span);
    } catch (error) {
      span.setStatus({ code: SpanStatusCode.ERROR, message: error instanceof Error ? error.name : "error" });
      throw error;
    } finally {
      span.end();
    }
  });
}

/** The W3C traceparent of the active span, when there is a recorded one. */
export function currentTraceparent(): string | undefined {
  const carrier: Record<string, string> = {};
  propagation.inject(context.active(), carrier);
  return carrier.traceparent;
}

/** The context whose parent is the span of a W3C traceparent (or the active context for none). */
export function contextFromTraceparent(traceparent: unknown): Context {
  if (typeof traceparent !== "string") return context.active();
  return propagation.extract(context.active(), { traceparent });
}

export { SpanKind, SpanStatusCode };
