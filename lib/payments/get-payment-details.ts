// The payment record of spec 2.2 with its operations (2.3) and, on request, the card image (2.4).
import { db, ONE_SNAPSHOT, type Tx } from "../db";
import { invalidParameter } from "../errors";
import { paymentRecordBody, type PaymentRecordBody } from "../notifications/bodies";
import { drawCardImage } from "../notifications/card-image";
import { getPaymentOrThrow } from "./get-payment-or-throw";
import { STORED_CARD_FACTS_SELECT } from "../cards/stored-card";
import type { Mode } from "../mode";

export interface GetPaymentDetailsOptions {
  merchantId: string;
  mode: Mode;
  paymentRef: string | undefined;
  /** The lookup request's responseid, carried in the record. */
  responseId: string;
  gfx?: boolean;
  /** Only this operation; all of them when absent. */
  operationId?: string;
  tx?: Tx;
}

export async function getPaymentDetails(options: GetPaymentDetailsOptions): Promise<PaymentRecordBody> {
  // The payment (its balance) and its operations are read in statements of their own: in one
  // snapshot, an answer recorded between them is in the record whole or not at all (a refund
  // approved beside the balance from before it otherwise). A caller's transaction is opened so by
  // the caller (requestPaymentDetails).
  const { tx } = options;
  return tx ? readPaymentDetails({ ...options, tx }) : db().$transaction((own) => readPaymentDetails({ ...options, tx: own }), ONE_SNAPSHOT);
}

async function readPaymentDetails({
  merchantId,
  mode,
  paymentRef,
  responseId,
  gfx = false,
  operationId,
  tx,
}: GetPaymentDetailsOptions & { tx: Tx }): Promise<PaymentRecordBody> {
  const paymentId = await getPaymentOrThrow({ merchantId, mode, paymentRef, tx });
  const payment = await tx.payment.findUniqueOrThrow({
    where: { id: paymentId },
    select: {
      id: true,
      merchantId: true,
      mode: true,
      merchantPaymentId: true,
      parentPaymentId: true,
      amount: true,
      balance: true,
      currency: true,
      reference: true,
      paymentType: true,
      processor: true,
      textOnStatement: true,
      note: true,
      tags: true,
      sca: true,
      customerEmail: true,
      customerFirstName: true,
      customerSurname: true,
      customerIpAddress: true,
      storedCard: { select: STORED_CARD_FACTS_SELECT },
      operations: {
        where: operationId ? { id: operationId } : undefined,
        orderBy: [{ createdAt: "asc" }, { id: "asc" }],
        select: {
          id: true,
          type: true,
          paymentType: true,
          amount: true,
          currency: true,
          createdAt: true,
          note: true,
          responseCode: true,
          authorizationCode: true,
          status: true,
        },
      },
    },
  });
  if (operationId && payment.operations.length === 0) throw invalidParameter("operationid", "no such operation on this payment");
  const card = payment.storedCard;
  const image =
    gfx && card ? drawCardImage({ scheme: card.scheme, last4: card.last4, expMonth: card.expMonth, expYear: card.expYear }) : undefined;
  return paymentRecordBody({ ...payment, card }, { responseId, gfx: image });
}
