// One log line, one metric sample and one span per merchant notification delivery attempt
// (lib/notifications/deliver-notification-attempt.ts calls it once the attempt is recorded).
// Never the body: it is the merchant's data and signed.
import { context, trace } from "@opentelemetry/api";
import { log } from "./logger";
import { metrics } from "./metrics";
import { SpanKind, SpanStatusCode } from "./tracing";

export interface ObservedNotificationAttempt {
  notificationId: string;
  /** The notification's mode (a metric label). */
  mode: "test" | "live";
  /** The scheduled attempt, or "resend" for one made from the back office. */
  attemptNumber: number | "resend";
  delivered: boolean;
  statusCode: number | null;
  error: string | null;
  durationMs: number;
}

export function observeNotificationAttempt(attempt: ObservedNotificationAttempt): void {
  const outcome = attempt.delivered ? "delivered" : "failed";
  metrics().notificationAttempts.inc({ outcome, mode: attempt.mode });
  metrics().notificationDuration.observe({ outcome, mode: attempt.mode }, attempt.durationMs / 1000);
  // The span is made after the fact, with the attempt's own start time, under the active span.
  const span = trace
    .getTracer("card-payment-service")
    .startSpan(
      "notification delivery",
      { kind: SpanKind.CLIENT, startTime: Date.now() - attempt.durationMs, attributes: { "cps.notification_id": attempt.notificationId, "cps.attempt": attempt.attemptNumber, "cps.outcome": outcome } },
      context.active(),
    );
  if (attempt.statusCode !== null) span.setAttribute("http.response.status_code", attempt.statusCode);
  if (!attempt.delivered) span.setStatus({ code: SpanStatusCode.ERROR, message: attempt.error ?? "not acknowledged" });
  span.end();
  log("notifications")[attempt.delivered ? "info" : "warn"](
    {
      event: "notification.attempt",
      notificationId: attempt.notificationId,
      attempt: attempt.attemptNumber,
      outcome,
      statusCode: attempt.statusCode,
      error: attempt.error ?? undefined,
      durationMs: attempt.durationMs,
    },
    `notification ${attempt.notificationId} attempt ${attempt.attemptNumber} ${outcome}`,
  );
}
