// The first statement of a capture, refund or void (lib/payments/request-follow-up.ts): finds the
// payment by paymentid or merchantpaymentid, takes its row lock for the rest of the transaction,
// and reads in the same round trip everything the notification address may come from (spec 6: the
// hosted integration's default address, the merchant's, then the address the payment itself was
// started with). Profiled in docs/performance.md: Prisma's model API made these four statements
// (lock, payment, session, merchant, plus a hosted integration when there is one); raw SQL makes
// them one, which is why this path does not use the model API.
// The operation totals are deliberately NOT read here: they must be read after the lock is granted,
// in a statement of their own, so that READ COMMITTED gives them a snapshot that includes the
// pending operation of a concurrent request that held the lock (lib/payments/operation-totals.ts).
import type { Tx } from "../db";
import { unknownPayment } from "../errors";
import type { AcquirerName } from "../acquirers/names";
import { PAYMENT_REF, type LockedPayment } from "./get-payment-or-throw";
import type { Mode } from "../mode";

export interface LockedFollowUpPayment extends LockedPayment {
  /** The processor that authorized it (null before an authorization). */
  processor: AcquirerName | null;
  /** The notification address for a follow-up when the request names none, or null. */
  configuredNotificationUrl: string | null;
}

interface Row {
  id: string;
  status: LockedPayment["status"];
  processor: AcquirerName | null;
  authorizedAmount: bigint | number | string;
  currency: string;
  hostedUrl: string | null;
  merchantUrl: string | null;
  sessionUrl: string | null;
  paymentUrl: string | null;
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
}): Promise<LockedFollowUpPayment> {
  if (!paymentRef || !PAYMENT_REF.test(paymentRef)) throw unknownPayment(parameter);
  // The paymentid wins when a paymentid equals another payment's merchantpaymentid. Only the
  // payment's row is locked (FOR UPDATE OF p); the joined rows are read as they are. The configured
  // addresses are the payment's mode's (the unprefixed columns are live mode's).
  const rows = await tx.$queryRaw<Row[]>`
    SELECT p."id", p."status"::text AS "status", p."processor"::text AS "processor", p."authorizedAmount", p."currency",
           CASE WHEN p."mode" = 'live' THEN h."defaultNotificationUrl" ELSE h."testDefaultNotificationUrl" END AS "hostedUrl",
           CASE WHEN p."mode" = 'live' THEN m."defaultNotificationUrl" ELSE m."testDefaultNotificationUrl" END AS "merchantUrl",
           s."notificationUrl" AS "sessionUrl", p."notificationUrl" AS "paymentUrl"
    FROM "Payment" p
    JOIN "Merchant" m ON m."id" = p."merchantId"
    LEFT JOIN "PaymentSession" s ON s."paymentId" = p."id"
    LEFT JOIN "HostedIntegration" h ON h."id" = s."hostedIntegrationId" AND h."merchantId" = p."merchantId"
    WHERE p."merchantId" = ${merchantId} AND p."mode" = ${mode}::"Mode" AND (p."id" = ${paymentRef} OR p."merchantPaymentId" = ${paymentRef})
    ORDER BY (p."id" = ${paymentRef}) DESC
    LIMIT 1
    FOR UPDATE OF p`;
  const row = rows[0];
  if (!row) throw unknownPayment(parameter);
  return {
    id: row.id,
    status: row.status,
    processor: row.processor,
    authorizedAmount: BigInt(row.authorizedAmount),
    currency: row.currency,
    // The order of lib/notifications/resolve-notification-url.ts for purpose "default" with a fallback.
    // (an empty hosted address is passed over there, as here).
    configuredNotificationUrl: (row.hostedUrl || null) ?? row.merchantUrl ?? row.sessionUrl ?? row.paymentUrl ?? null,
  };
}
