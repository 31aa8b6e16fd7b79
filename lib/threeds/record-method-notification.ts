// The ACS's 3DS Method notification (3dsmethod.rst): the hidden iframe posts
// `threeDSMethodData=<base64url {"threeDSServerTransID": ...}>` to our threeDSMethodNotificationURL
// when the method page has run. It marks the waiting authentication's method complete, so that its
// AReq says threeDSCompInd Y. Anyone can post here: the id must be one this payment is waiting on
// (state "method"), the body carries no card data, and anything else changes nothing.
import { z } from "zod";
import { db } from "../db";
import { log } from "../observability/logger";
import { decodeBase64Url } from "./messages";

/** 3dsmethod.rst: the notification's threeDSMethodData decodes to the /preauth id alone. */
const notificationData = z.object({ threeDSServerTransID: z.uuid() });

export type MethodNotificationOutcome = "recorded" | "refused";

export async function recordMethodNotification({
  paymentId,
  methodData,
}: {
  paymentId: string;
  /** The form field as posted (padded or not: "must be able to receive both"). */
  methodData: string | undefined;
}): Promise<MethodNotificationOutcome> {
  const data = methodData && methodData.length <= 2048 ? decodeBase64Url(notificationData, methodData.replace(/=+$/, "")) : undefined;
  if (!data) {
    log("threeds").warn({ paymentId }, `3DS Method notification for payment ${paymentId} refused: threeDSMethodData is not valid`);
    return "refused";
  }
  // Only the first notification counts, and only while this payment's AReq waits for it.
  const marked = await db().threeDsAuthentication.updateMany({
    where: { paymentId, threeDsServerTransId: data.threeDSServerTransID, state: "method", methodCompletedAt: null },
    data: { methodCompletedAt: new Date() },
  });
  if (marked.count === 0) {
    log("threeds").warn(
      { paymentId, threeDsServerTransId: data.threeDSServerTransID },
      `3DS Method notification for payment ${paymentId} refused: no authentication of this payment waits for it`,
    );
    return "refused";
  }
  log("threeds").info({ paymentId, threeDsServerTransId: data.threeDSServerTransID }, `3DS Method of payment ${paymentId} completed`);
  return "recorded";
}
