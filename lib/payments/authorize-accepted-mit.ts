// Authorizes an accepted merchant-initiated payment with its stored card through the routing
// (lib/jobs/authorize-mit-payment.ts calls it) and stores the notification of spec 6.3.
// Retry-safe: authorizePayment answers what was recorded when the payment is already authorized,
// a recorded decline is answered without routing again, and the notification id is deterministic.
import { db } from "../db";
import type { MitPaymentType } from "../acquirers/contract";
import { authorizePayment } from "./authorize-payment";
import { notifyMitResult, type MitOutcome } from "./notify-mit-result";

async function recordedDecline(paymentId: string): Promise<MitOutcome | undefined> {
  const payment = await db().payment.findUniqueOrThrow({ where: { id: paymentId }, select: { status: true, processor: true } });
  if (payment.status !== "DECLINED" && payment.status !== "FAILED") return undefined;
  const last = await db().operation.findFirst({
    where: { paymentId, type: "authorize" },
    orderBy: [{ routingAttempt: "desc" }, { createdAt: "desc" }],
    select: { processor: true, responseCode: true, eci: true },
  });
  return {
    status: payment.status === "DECLINED" ? "declined" : "failed",
    processor: last?.processor ?? payment.processor ?? undefined,
    responsecode: last?.responseCode ?? "",
    authorizationcode: undefined,
    eci: last?.eci ?? undefined,
    par: undefined,
  };
}

/**
 * Returns the outcome and the id of the stored notification (null without an address, or while the
 * outcome is pending): dispatch it after. Pending: an attempt's outcome is unknown; nothing is routed
 * further and nothing notified; the resolver job (lib/jobs/finish-stuck-payments.ts) finishes it.
 */
export async function authorizeAcceptedMit({
  paymentId,
  responseId,
}: {
  paymentId: string;
  responseId: string;
}): Promise<{ status: MitOutcome["status"] | "pending"; notificationId: string | null }> {
  const payment = await db().payment.findUniqueOrThrow({
    where: { id: paymentId },
    select: { storedCardId: true, paymentType: true, parentPaymentId: true, customerIpAddress: true, requestedProcessor: true },
  });
  const outcomeOf = (result: Omit<MitOutcome, "status"> & { status: MitOutcome["status"] | "pending" }): MitOutcome => ({
    status: result.status === "pending" ? "failed" : result.status,
    processor: result.processor,
    responsecode: result.responsecode,
    authorizationcode: result.authorizationcode,
    eci: result.eci,
    par: result.par,
  });
  // The notification row is written in the transaction that records the authorization's outcome.
  let notificationId: string | null | undefined;
  // A retried step after a decline must not route the payment again: answer what was recorded.
  const result =
    (await recordedDecline(paymentId)) ??
    (await authorizePayment({
      paymentId,
      source: { kind: "stored", storedCardId: payment.storedCardId! },
      processors: payment.requestedProcessor ? [payment.requestedProcessor] : undefined,
      mit: { paymentType: payment.paymentType as MitPaymentType, parentPaymentId: payment.parentPaymentId ?? undefined },
      responseId,
      customerIp: payment.customerIpAddress ?? undefined,
      recordOutcome: async (tx, settled) => {
        notificationId = await notifyMitResult({ paymentId, responseId, outcome: outcomeOf(settled), tx });
      },
    }));
  if (result.status === "pending") return { status: "pending", notificationId: null };
  // An outcome recorded by an earlier try (its row is there already: the id is deterministic).
  if (notificationId === undefined) notificationId = await notifyMitResult({ paymentId, responseId, outcome: outcomeOf(result) });
  return { status: result.status, notificationId };
}
