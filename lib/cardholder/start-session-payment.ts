// goPay(), first step: opens the session's payment (no card data in this request), so that
// jspaymentstarted can name its paymentid. A session has one payment: when an attempt is declined
// or its challenge fails, the next goPay() of the same window tries again on the same payment, the
// way a Stripe PaymentIntent collects several attempts.
import { db } from "../db";
import { Prisma } from "../generated/prisma/client";
import { dispatchNotification } from "../notifications/enqueue-notification";
import { storeCompletionNotification } from "../notifications/send-completion-notification";
import { newId } from "../ids";
import type { StartPaymentResponse } from "./protocol";
import { ERROR_TEXTS } from "./protocol";

export interface StartSessionPaymentOptions {
  sessionId: string;
  now?: Date;
}

const RETRYABLE_PAYMENT_STATES = new Set(["PENDING", "DECLINED", "FAILED"]);

class AlreadyPaidError extends Error {}

/**
 * Another payment of the merchant already carries this window's merchantpaymentid (two windows
 * opened for one order, the other one paid first). The window is closed, the merchant gets its
 * completion notification (status failed), and the cardholder a clear refusal instead of a
 * technical error.
 */
async function refuseAlreadyPaid(sessionId: string): Promise<StartPaymentResponse> {
  const notificationId = await db().$transaction(async (tx) => {
    await tx.$queryRaw`SELECT "id" FROM "PaymentSession" WHERE "id" = ${sessionId} FOR UPDATE`;
    const closed = await tx.paymentSession.updateMany({
      where: { id: sessionId, status: "OPEN", paymentId: null },
      data: { status: "COMPLETED", completedAt: new Date() },
    });
    return closed.count === 1 ? storeCompletionNotification({ tx, sessionId, status: "failed" }) : null;
  });
  if (notificationId) await dispatchNotification(notificationId);
  return { result: "failed", paymentid: null, errorcode: "ALREADY_PAID", errortext: ERROR_TEXTS.ALREADY_PAID };
}

export async function startSessionPayment(options: StartSessionPaymentOptions): Promise<StartPaymentResponse> {
  try {
    return await openPayment(options);
  } catch (error) {
    // The check inside the transaction, or the unique index when the other window won the race.
    const duplicate =
      error instanceof AlreadyPaidError || (error instanceof Prisma.PrismaClientKnownRequestError && error.code === "P2002");
    if (!duplicate) throw error;
    return refuseAlreadyPaid(options.sessionId);
  }
}

async function openPayment({ sessionId, now = new Date() }: StartSessionPaymentOptions): Promise<StartPaymentResponse> {
  return db().$transaction(async (tx) => {
    await tx.$queryRaw`SELECT "id" FROM "PaymentSession" WHERE "id" = ${sessionId} FOR UPDATE`;
    const session = await tx.paymentSession.findUnique({
      where: { id: sessionId },
      select: {
        id: true,
        merchantId: true,
        mode: true,
        status: true,
        expiresAt: true,
        merchantPaymentId: true,
        newMerchantPaymentId: true,
        onBehalfOfPaymentId: true,
        amount: true,
        currency: true,
        reference: true,
        textOnStatement: true,
        merchantData: true,
        instantCapture: true,
        customerEmail: true,
        customerFirstName: true,
        customerSurname: true,
        customerIpAddress: true,
        payment: { select: { id: true, status: true, storedCardId: true } },
      },
    });
    const failed = (errorcode: "PAYMENT_TIMEOUT" | "PAYMENT_ERROR" | "PAYMENT_IN_PROGRESS"): StartPaymentResponse => ({
      result: "failed",
      paymentid: session?.payment?.id ?? null,
      errorcode,
      errortext: ERROR_TEXTS[errorcode],
    });
    if (!session) return failed("PAYMENT_ERROR");
    if (session.status === "TIMED_OUT" || session.expiresAt.getTime() <= now.getTime()) return failed("PAYMENT_TIMEOUT");
    if (session.status === "PROCESSING") return failed("PAYMENT_IN_PROGRESS");
    if (session.status === "COMPLETED") return failed("PAYMENT_ERROR");

    if (session.payment) {
      if (!RETRYABLE_PAYMENT_STATES.has(session.payment.status)) return failed("PAYMENT_ERROR");
      // The next attempt may use another card: the card of the failed attempt is let go (and its
      // encrypted number deleted when no other payment uses it), so the payment keeps the card it is paid with.
      const previousCardId = session.onBehalfOfPaymentId ? undefined : session.payment.storedCardId;
      await tx.payment.update({
        where: { id: session.payment.id },
        data: { status: "PENDING", ...(previousCardId ? { storedCardId: null } : {}) },
      });
      if (previousCardId && (await tx.payment.count({ where: { storedCardId: previousCardId } })) === 0) {
        await tx.storedCard.delete({ where: { id: previousCardId } });
      }
      return { result: "started", paymentid: session.payment.id };
    }

    // On behalf of a stored payment, the new payment takes `newmerchantpaymentid` as its reference.
    const merchantPaymentId = session.onBehalfOfPaymentId ? session.newMerchantPaymentId : session.merchantPaymentId;
    if (
      merchantPaymentId &&
      (await tx.payment.findUnique({
        where: { merchantId_mode_merchantPaymentId: { merchantId: session.merchantId, mode: session.mode, merchantPaymentId } },
        select: { id: true },
      }))
    ) {
      throw new AlreadyPaidError();
    }
    const paymentId = newId();
    await tx.payment.create({
      data: {
        id: paymentId,
        merchantId: session.merchantId,
        // The session's mode, which is its API key's: the payment and its card belong to it.
        mode: session.mode,
        merchantPaymentId,
        parentPaymentId: session.onBehalfOfPaymentId,
        amount: session.amount,
        currency: session.currency,
        reference: session.reference,
        paymentType: "cit",
        textOnStatement: session.textOnStatement,
        merchantData: session.merchantData,
        instantCapture: session.instantCapture,
        customerEmail: session.customerEmail,
        customerFirstName: session.customerFirstName,
        customerSurname: session.customerSurname,
        customerIpAddress: session.customerIpAddress,
      },
      select: { id: true },
    });
    await tx.paymentSession.update({ where: { id: session.id }, data: { paymentId } });
    return { result: "started", paymentid: paymentId };
  });
}
