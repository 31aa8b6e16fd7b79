// Finds a merchant's payment by the `{paymentid}` of a path: its paymentid or the merchant's own
// merchantpaymentid. Another merchant's payment, and a payment of the other mode (a test key on a
// live payment or the reverse), is answered exactly like one that does not exist.
import { db, type Tx } from "../db";
import type { Mode } from "../mode";
import { unknownPayment } from "../errors";

/** What a `{paymentid}` can be: a paymentid or a merchantpaymentid (anything else names no payment). */
export const PAYMENT_REF = /^[a-zA-Z0-9]{1,64}$/;

export interface GetPaymentOrThrowOptions {
  merchantId: string;
  /** The API key's mode: a payment of the other mode does not exist for it. */
  mode: Mode;
  paymentRef: string | undefined;
  /** The parameter named in the error (paymentid in paths, parentpaymentid for MIT...). */
  parameter?: string;
  tx?: Tx;
}

/** The payment's id, or INVALID_PARAMETER "no such payment". */
export async function getPaymentOrThrow({
  merchantId,
  mode,
  paymentRef,
  parameter = "paymentid",
  tx,
}: GetPaymentOrThrowOptions): Promise<string> {
  if (!paymentRef || !PAYMENT_REF.test(paymentRef)) throw unknownPayment(parameter);
  const client = tx ?? db();
  const byId = await client.payment.findFirst({ where: { id: paymentRef, merchantId, mode }, select: { id: true } });
  if (byId) return byId.id;
  const byReference = await client.payment.findUnique({
    where: { merchantId_mode_merchantPaymentId: { merchantId, mode, merchantPaymentId: paymentRef } },
    select: { id: true },
  });
  if (byReference) return byReference.id;
  throw unknownPayment(parameter);
}

/**
 * Takes the payment's row lock for the rest of the transaction, so that concurrent captures,
 * refunds and voids of one payment are checked and reserved one after the other.
 */
export async function lockPayment(tx: Tx, paymentId: string): Promise<void> {
  await tx.$queryRaw`SELECT "id" FROM "Payment" WHERE "id" = ${paymentId} FOR UPDATE`;
}
