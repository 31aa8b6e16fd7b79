// POST /api/mit (spec 4.3): a merchant-initiated payment (incremental, scheduled or unscheduled) on
// behalf of a stored payment. The new payment is created here and answered with a responseid; the
// authorization and the notification of spec 6.3 run in the background.
import { db, Prisma, type Tx } from "../db";
import { invalidParameter } from "../errors";
import { newId } from "../ids";
import { resolveNotificationUrl } from "../notifications/resolve-notification-url";
import { mitRequested } from "../inngest/events/merchant-api";
import { sendEventAfterCommit } from "../inngest/send-event";
import type { MitRequest } from "../validation/mit";
import { checkMitParent } from "./check-mit-parent";
import { MIT_STOP_SELECT } from "./stop-merchant-initiated-payments";
import { getPaymentOrThrow } from "./get-payment-or-throw";
import { assertRoutable } from "../routing/routing";
import type { Mode } from "../mode";
import { customerColumns } from "./customer-columns";

export interface AuthorizeMitOptions {
  merchantId: string;
  /** The API key's mode: the stored payment must be of it, and the new payment is. */
  mode: Mode;
  input: MitRequest;
  responseId: string;
  /** Stores the answer under the request's Idempotency-Key in the transaction that creates the payment. */
  bindAnswer?: (tx: Tx, body: Record<string, unknown>) => Promise<void>;
}

/** Runs the creating transaction; two MITs racing for one newmerchantpaymentid: the loser is refused as such (400), not a 500. */
async function createMitPayment(create: () => Promise<void>, newMerchantPaymentId: string | undefined): Promise<void> {
  try {
    await create();
  } catch (error) {
    if (newMerchantPaymentId && error instanceof Prisma.PrismaClientKnownRequestError && error.code === "P2002") {
      throw invalidParameter("newmerchantpaymentid", "is already used by another payment of this merchant");
    }
    throw error;
  }
}

export async function authorizeMit({
  merchantId,
  mode,
  input,
  responseId,
  bindAnswer,
}: AuthorizeMitOptions): Promise<{ responseid: string; paymentId: string }> {
  const parentRef = input.paymentid ?? input.parentpaymentid ?? input.merchantpaymentid;
  const parentParameter = input.paymentid ? "paymentid" : input.parentpaymentid ? "parentpaymentid" : "merchantpaymentid";
  if (!parentRef) throw invalidParameter("paymentid", "is required: the stored payment to charge (or its merchantpaymentid)");
  if (input.paymentid && input.parentpaymentid && input.paymentid !== input.parentpaymentid) {
    throw invalidParameter("parentpaymentid", "names another payment than paymentid");
  }

  const paymentId = newId();
  await createMitPayment(async () => db().$transaction(async (tx) => {
    const parentId = await getPaymentOrThrow({ merchantId, mode, paymentRef: parentRef, parameter: parentParameter, tx });
    if (input.merchantpaymentid && parentParameter !== "merchantpaymentid") {
      const named = await getPaymentOrThrow({ merchantId, mode, paymentRef: input.merchantpaymentid, parameter: "merchantpaymentid", tx });
      if (named !== parentId) throw invalidParameter("merchantpaymentid", "names another payment than paymentid");
    }
    const parent = await tx.payment.findUniqueOrThrow({
      where: { id: parentId },
      select: {
        storedCardId: true,
        paymentType: true,
        status: true,
        storedCard: { select: MIT_STOP_SELECT },
      },
    });
    checkMitParent({ parent, parameter: parentParameter });
    if (input.newmerchantpaymentid) {
      const taken = await tx.payment.findUnique({
        where: { merchantId_mode_merchantPaymentId: { merchantId, mode, merchantPaymentId: input.newmerchantpaymentid } },
        select: { id: true },
      });
      if (taken) throw invalidParameter("newmerchantpaymentid", "is already used by another payment of this merchant");
    }
    // No acquirer account of the merchant takes this payment: refused before anything is made.
    await assertRoutable({
      merchantId,
      mode,
      currency: input.currency,
      requested: input.processor ? [input.processor] : undefined,
      purpose: "mit",
      tx,
    });
    const url = await resolveNotificationUrl({ merchantId, mode, requestedUrl: input.notificationurl, purpose: "default", tx });
    if (!url) throw invalidParameter("notificationurl", "is required: no notification address is configured for this merchant");
    await tx.payment.create({
      data: {
        id: paymentId,
        merchantId,
        mode,
        merchantPaymentId: input.newmerchantpaymentid ?? null,
        parentPaymentId: parentId,
        storedCardId: parent.storedCardId,
        status: "PENDING",
        amount: input.amount,
        currency: input.currency,
        reference: input.reference ?? null,
        paymentType: input.paymenttype,
        textOnStatement: input.textonstatement ?? null,
        note: input.note ?? null,
        tags: input.tags ?? null,
        ...customerColumns(input.customer),
        // Resolved once, here: the job and a re-sent event after a lost one use the same values.
        notificationUrl: url,
        requestedProcessor: input.processor ?? null,
        requestResponseId: responseId,
      },
      select: { id: true },
    });
    await bindAnswer?.(tx, { responseid: responseId });
  }), input.newmerchantpaymentid);
  await sendEventAfterCommit({ type: mitRequested, data: { paymentId, responseId }, id: `mit-${paymentId}` });
  return { responseid: responseId, paymentId };
}
