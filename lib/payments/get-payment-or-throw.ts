// Finds a merchant's payment by the `{paymentid}` of a path: its paymentid or the merchant's own
// merchantpaymentid. Another merchant's payment is answered exactly like one that does not exist.
import { db, type Tx } from "../db";
import { unknownPayment } from "../errors";
import type { PaymentStatus } from "../generated/prisma/enums";

const PAYMENT_REF = /^[a-zA-Z0-9]{1,64}$/;

export interface GetPaymentOrThrowOptions {
  merchantId: string;
  paymentRef: string | undefined;
  /** The parameter named in the error (paymentid in paths, parentpaymentid for MIT...). */
  parameter?: string;
  tx?: Tx;
}

/** The payment's id, or INVALID_PARAMETER "no such payment". */
export async function getPaymentOrThrow({
  merchantId,
  paymentRef,
  parameter = "paymentid",
  tx,
}: GetPaymentOrThrowOptions): Promise<string> {
  if (!paymentRef || !PAYMENT_REF.test(paymentRef)) throw unknownPayment(parameter);
  const client = tx ?? db();
  const byId = await client.payment.findFirst({ where: { id: paymentRef, merchantId }, select: { id: true } });
  if (byId) return byId.id;
  const byReference = await client.payment.findUnique({
    where: { merchantId_merchantPaymentId: { merchantId, merchantPaymentId: paymentRef } },
    select: { id: true },
  });
  if (byReference) return byReference.id;
  throw unknownPayment(parameter);
}

export interface LockedPayment {
  id: string;
  status: PaymentStatus;
  authorizedAmount: bigint;
  currency: string;
}

/**
 * Finds the payment by paymentid or merchantpaymentid, takes its row lock for the rest of the
 * transaction and reads what the amount rules need, in one statement (capture and refund are hot
 * paths). The paymentid wins when a paymentid equals another payment's merchantpaymentid.
 */
export async function lockPaymentOrThrow({
  tx,
  merchantId,
  paymentRef,
  parameter = "paymentid",
}: {
  tx: Tx;
  merchantId: string;
  paymentRef: string | undefined;
  parameter?: string;
}): Promise<LockedPayment> {
  if (!paymentRef || !PAYMENT_REF.test(paymentRef)) throw unknownPayment(parameter);
  const rows = await tx.$queryRaw<LockedPayment[]>`
    SELECT "id", "status"::text AS "status", "authorizedAmount", "currency"
    FROM "Payment"
    WHERE "merchantId" = ${merchantId} AND ("id" = ${paymentRef} OR "merchantPaymentId" = ${paymentRef})
    ORDER BY ("id" = ${paymentRef}) DESC
    LIMIT 1
    FOR UPDATE`;
  const payment = rows[0];
  if (!payment) throw unknownPayment(parameter);
  return { ...payment, authorizedAmount: BigInt(payment.authorizedAmount) };
}

/**
 * Takes the payment's row lock for the rest of the transaction, so that concurrent captures,
 * refunds and voids of one payment are checked and reserved one after the other.
 */
export async function lockPayment(tx: Tx, paymentId: string): Promise<void> {
  await tx.$queryRaw`SELECT "id" FROM "Payment" WHERE "id" = ${paymentId} FOR UPDATE`;
}
