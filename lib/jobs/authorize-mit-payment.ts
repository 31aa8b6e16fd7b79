// Authorizes an accepted merchant-initiated payment with its stored card through the routing, then
// sends the notification of spec 6.3. One step: authorizePayment answers what was recorded when the
// payment is already authorized, and the notification and event ids are deterministic, so a
// retried step repeats nothing.
import { db } from "../db";
import { deliverNowOrSchedule } from "../notifications/enqueue-notification";
import { authorizePayment } from "../payments/authorize-payment";
import { notifyMitResult } from "../payments/notify-mit-result";
import type { MitPaymentType } from "../processors/types";
import { inngest } from "../inngest/client";
import { mitRequested } from "../inngest/events/merchant-api";

async function recordedDecline(paymentId: string) {
  const payment = await db().payment.findUniqueOrThrow({ where: { id: paymentId }, select: { status: true, processor: true } });
  if (payment.status !== "DECLINED" && payment.status !== "FAILED") return undefined;
  const last = await db().operation.findFirst({
    where: { paymentId, type: "authorize" },
    orderBy: [{ routingAttempt: "desc" }, { createdAt: "desc" }],
    select: { processor: true, responseCode: true, eci: true },
  });
  return {
    status: payment.status === "DECLINED" ? ("declined" as const) : ("failed" as const),
    processor: last?.processor ?? payment.processor ?? undefined,
    responsecode: last?.responseCode ?? "",
    authorizationcode: undefined,
    eci: last?.eci ?? undefined,
    par: undefined,
  };
}

export const authorizeMitPayment = inngest.createFunction(
  { id: "authorize-mit-payment", retries: 3, triggers: [mitRequested] },
  async ({ event, step }) => {
    const { paymentId, responseId, processor, notificationUrl } = event.data;
    return step.run("authorize-and-notify", async () => {
      const payment = await db().payment.findUniqueOrThrow({
        where: { id: paymentId },
        select: { storedCardId: true, paymentType: true, parentPaymentId: true, customerIpAddress: true },
      });
      // A retried step after a decline must not route the payment again: answer what was recorded.
      const result =
        (await recordedDecline(paymentId)) ??
        (await authorizePayment({
          paymentId,
          source: { kind: "stored", storedCardId: payment.storedCardId! },
          processors: processor ? [processor] : undefined,
          mit: { paymentType: payment.paymentType as MitPaymentType, parentPaymentId: payment.parentPaymentId ?? undefined },
          responseId,
          customerIp: payment.customerIpAddress ?? undefined,
        }));
      const outcome = {
        status: result.status,
        processor: result.processor,
        responsecode: result.responsecode,
        authorizationcode: result.authorizationcode,
        eci: result.eci,
        par: result.par,
      };
      const notificationId = await notifyMitResult({ paymentId, responseId, notificationUrl, outcome });
      if (notificationId) await deliverNowOrSchedule(notificationId);
      return { paymentId, status: result.status, notificationId };
    });
  },
);
