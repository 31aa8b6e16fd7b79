// A merchant-initiated payment left PENDING after its run (an attempt whose outcome was unknown, a
// crash between the attempts and the payment's final state): finished once every attempt is
// settled, with the one MIT result notification of spec 6.3 (lib/jobs/finish-stuck-payments.ts
// calls it, as does the operator's settle tool). An approved attempt authorizes the payment; a
// payment whose attempts all failed or were declined ends so, without routing further: the
// unknown attempt stopped the routing, and a charge minutes later at another acquirer is not
// what the merchant asked for (docs/decisions/0105-unknown-outcomes-when-not-found-is-trusted-what.md).
import { db } from "../db";
import { dispatchNotification } from "../notifications/enqueue-notification";
import { MIT_PAYMENT_TYPES } from "../validation/mit";
import { approvedAttemptOf } from "./apply-approved-attempt";
import { authorizeAcceptedMit } from "./authorize-accepted-mit";
import { notifyMitResult } from "./notify-mit-result";

export type FinishMitOutcome = "not_mit" | "pending" | "approved" | "declined" | "failed";

export async function finishMitAuthorization({ paymentId }: { paymentId: string }): Promise<FinishMitOutcome> {
  const payment = await db().payment.findUniqueOrThrow({
    where: { id: paymentId },
    select: { status: true, paymentType: true, requestResponseId: true, processor: true },
  });
  if (!payment.requestResponseId || !(MIT_PAYMENT_TYPES as readonly string[]).includes(payment.paymentType)) return "not_mit";
  const responseId = payment.requestResponseId;
  if ((await db().operation.count({ where: { paymentId, type: "authorize", status: "pending" } })) > 0) return "pending";
  const last = await db().operation.findFirst({
    where: { paymentId, type: "authorize" },
    orderBy: [{ routingAttempt: "desc" }, { createdAt: "desc" }],
    select: { status: true, processor: true, responseCode: true, eci: true },
  });
  // Approved (or already final): the same retry-safe path as the MIT run, which answers what was recorded.
  if (payment.status !== "PENDING" || !last || (await approvedAttemptOf(paymentId))) {
    const { status, notificationId } = await authorizeAcceptedMit({ paymentId, responseId });
    if (notificationId) await dispatchNotification(notificationId);
    return status;
  }
  const status = last.status === "declined" ? "declined" : "failed";
  const notificationId = await db().$transaction(async (tx) => {
    const closed = await tx.payment.updateMany({
      where: { id: paymentId, status: "PENDING" },
      data: { status: status === "declined" ? "DECLINED" : "FAILED", processor: last.processor ?? payment.processor },
    });
    if (closed.count === 0) return null;
    return notifyMitResult({
      paymentId,
      responseId,
      outcome: { status, processor: last.processor ?? undefined, responsecode: last.responseCode ?? "", eci: last.eci ?? undefined },
      tx,
    });
  });
  if (notificationId) await dispatchNotification(notificationId);
  return status;
}
