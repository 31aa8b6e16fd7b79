// Authorizes an accepted merchant-initiated payment with its stored card through the routing, then
// sends the notification of spec 6.3.
import { authorizePayment } from "../../payments/authorize-payment";
import { notifyMitResult } from "../../payments/notify-mit-result";
import { inngest } from "../client";
import { mitRequested, notificationCreated } from "../events/merchant-api";
import { db } from "../../db";
import type { MitPaymentType } from "../../processors/types";

export const authorizeMitPayment = inngest.createFunction(
  { id: "authorize-mit-payment", retries: 3, triggers: [mitRequested] },
  async ({ event, step }) => {
    const { paymentId, responseId, processor, notificationUrl } = event.data;
    const outcome = await step.run("authorize", async () => {
      const payment = await db().payment.findUniqueOrThrow({
        where: { id: paymentId },
        select: { storedCardId: true, paymentType: true, parentPaymentId: true, status: true, customerIpAddress: true },
      });
      const result = await authorizePayment({
        paymentId,
        source: { kind: "stored", storedCardId: payment.storedCardId! },
        processors: processor ? [processor] : undefined,
        mit: { paymentType: payment.paymentType as MitPaymentType, parentPaymentId: payment.parentPaymentId ?? undefined },
        responseId,
        customerIp: payment.customerIpAddress ?? undefined,
      });
      return {
        status: result.status,
        processor: result.processor,
        responsecode: result.responsecode,
        authorizationcode: result.authorizationcode,
        eci: result.eci,
        par: result.par,
      };
    });
    const notificationId = await step.run("store-notification", () => notifyMitResult({ paymentId, responseId, notificationUrl, outcome }));
    if (notificationId) {
      await step.sendEvent("dispatch-notification", notificationCreated.create({ notificationId }, { id: `notification-${notificationId}` }));
    }
    return { paymentId, status: outcome.status, notificationId };
  },
);
