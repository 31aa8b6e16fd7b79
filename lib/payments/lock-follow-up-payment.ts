// The first statement of a capture, refund or void (lib/payments/request-follow-up.ts): finds the
// payment by paymentid or merchantpaymentid, takes its row lock for the rest of the transaction,
// and reads in the same round trip everything the notification address may come from (spec 6: the
// hosted integration's default address, the merchant's, then the address the payment itself was
// started with), and the operation totals. Profiled in docs/performance.md: Prisma's model API made
// these four statements (lock, payment, session, merchant, plus a hosted integration when there is
// one); raw SQL made them one, and the totals a second.
// The totals must be read after the lock is granted, in a statement of their own, so that READ
// COMMITTED gives them a snapshot that includes the pending operation of a concurrent request that
// held the lock (lib/payments/operation-totals.ts): the PL/pgSQL function cps_lock_follow_up_payment
// (migration follow_up_lock_with_totals) runs the lock and then that statement, one round trip.
import type { Tx } from "../db";
import { unknownPayment } from "../errors";
import type { AcquirerName } from "../acquirers/names";
import { PAYMENT_REF, type LockedPayment } from "./get-payment-or-throw";
import { totalsFromRows, type OperationTotals, type OperationTotalsRow } from "./operation-totals";
import type { Mode } from "../mode";

export interface LockedFollowUpPayment extends LockedPayment {
  /** The processor that authorized it (null before an authorization). */
  processor: AcquirerName | null;
  /** The platform of the account that authorized it (decision 0193); null: the processor's first. */
  platform: string | null;
  /** The notification address for a follow-up when the request names none, or null. */
  configuredNotificationUrl: string | null;
}

interface Row {
  id: string;
  status: LockedPayment["status"];
  processor: AcquirerName | null;
  platform: string | null;
  authorizedAmount: bigint | number | string;
  currency: string;
  hostedUrl: string | null;
  merchantUrl: string | null;
  sessionUrl: string | null;
  paymentUrl: string | null;
  totals: OperationTotalsRow[];
}

export async function lockFollowUpPaymentOrThrow({
  tx,
  merchantId,
  mode,
  paymentRef,
  parameter = "paymentid",
}: {
  tx: Tx;
  merchantId: string;
  /** The key's mode: a payment of the other mode is not found, as another merchant's is not. */
  mode: Mode;
  paymentRef: string | undefined;
  parameter?: string;
}): Promise<LockedFollowUpPayment & { totals: OperationTotals }> {
  if (!paymentRef || !PAYMENT_REF.test(paymentRef)) throw unknownPayment(parameter);
  const rows = await tx.$queryRaw<Row[]>`SELECT * FROM "cps_lock_follow_up_payment"(${merchantId}, ${mode}::"Mode", ${paymentRef})`;
  const row = rows[0];
  if (!row) throw unknownPayment(parameter);
  return {
    id: row.id,
    status: row.status,
    processor: row.processor,
    platform: row.platform,
    authorizedAmount: BigInt(row.authorizedAmount),
    currency: row.currency,
    // The order of lib/notifications/resolve-notification-url.ts for purpose "default" with a fallback.
    // (an empty hosted address is passed over there, as here).
    configuredNotificationUrl: (row.hostedUrl || null) ?? row.merchantUrl ?? row.sessionUrl ?? row.paymentUrl ?? null,
    totals: totalsFromRows(row.totals),
  };
}
