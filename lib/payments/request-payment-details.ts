// GET /api/{paymentid}/payment (spec 4.8): answers a responseid at once; the record of spec 2.2 is
// delivered by the notification of 6.5. The record is taken when the request is made, so that
// it describes the payment as it was when the merchant asked. With sync=1 (beyond the spec) the
// record is the answer and no notification is sent.
import { db, ONE_SNAPSHOT } from "../db";
import { invalidParameter } from "../errors";
import { dispatchNotification, enqueueNotification } from "../notifications/enqueue-notification";
import { resolveNotificationUrl } from "../notifications/resolve-notification-url";
import type { PaymentDetailsRequest } from "../validation/payment-details";
import type { PaymentRecordBody } from "../notifications/bodies";
import { getPaymentDetails } from "./get-payment-details";
import type { Mode } from "../mode";

export async function requestPaymentDetails({
  merchantId,
  mode,
  paymentRef,
  responseId,
  input,
}: {
  merchantId: string;
  mode: Mode;
  paymentRef: string | undefined;
  responseId: string;
  input: PaymentDetailsRequest;
}): Promise<{ responseid: string } | PaymentRecordBody> {
  if (input.sync) {
    if (input.notificationurl) throw invalidParameter("notificationurl", "is not used with sync=1: the record is the answer");
    return getPaymentDetails({ merchantId, mode, paymentRef, responseId, gfx: input.gfx, operationId: input.operationid });
  }
  const notificationId = await db().$transaction(async (tx) => {
    const record = await getPaymentDetails({ merchantId, mode, paymentRef, responseId, gfx: input.gfx, operationId: input.operationid, tx });
    const session = await tx.paymentSession.findUnique({ where: { paymentId: record.paymentid }, select: { hostedIntegrationId: true } });
    const url = await resolveNotificationUrl({
      merchantId,
      mode,
      requestedUrl: input.notificationurl,
      hostedIntegrationId: session?.hostedIntegrationId,
      purpose: "default",
      tx,
    });
    if (!url) throw invalidParameter("notificationurl", "is required: no notification address is configured for this merchant");
    return enqueueNotification({ merchantId, mode, paymentId: record.paymentid, kind: "payment_details", url, body: record, tx });
  }, ONE_SNAPSHOT);
  await dispatchNotification(notificationId);
  return { responseid: responseId };
}
