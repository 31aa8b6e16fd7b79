// The first statement of a capture, refund or void (lib/payments/request-follow-up.ts): finds the
// payment by paymentid or merchantpaymentid and reads, in one snapshot and without a lock, what the
// amount rules decide on (its status, authorized amount and operation totals) and everything the
// notification address may come from (spec 6: the hosted integration's default address, the
// merchant's, then the address the payment itself was started with). Profiled in
// docs/performance.md: Prisma's model API made these four statements; the PL/pgSQL function
// cps_read_follow_up_payment (migration follow_up_reserved_on_unchanged_state) makes them one.
// Nothing is locked here: the reservation's own statement takes the payment's lock and writes only
// if what was read here is unchanged (its `unchanged` guard, cps_follow_up_unchanged; decision 0212).
import { Prisma, type SqlRunner } from "../db";
import { unknownPayment } from "../errors";
import type { AcquirerName } from "../acquirers/names";
import { PAYMENT_REF } from "./get-payment-or-throw";
import type { FollowUpPaymentState } from "./follow-ups/amount-rule";
import { totalsFromRows, type OperationTotals, type OperationTotalsRow } from "./operation-totals";
import type { Mode } from "../mode";

/** What the amount rules decide on (FollowUpPaymentState), with the payment's id, currency and addresses. */
export interface ReadFollowUpPayment extends FollowUpPaymentState {
  id: string;
  currency: string;
  /** The processor that authorized it (null before an authorization). */
  processor: AcquirerName | null;
  /** The platform of the account that authorized it (decision 0193); null: the processor's first. */
  platform: string | null;
  /** The notification address for a follow-up when the request names none, or null. */
  configuredNotificationUrl: string | null;
  totals: OperationTotals;
  /** The guard of the reservation: true in its statement only if the state read here is unchanged. */
  unchanged: Prisma.Sql;
}

interface Row {
  id: string;
  status: FollowUpPaymentState["status"];
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

export async function readFollowUpPaymentOrThrow({
  database,
  merchantId,
  mode,
  paymentRef,
  parameter = "paymentid",
}: {
  /** The client, or the transaction the reservation is written in. */
  database: SqlRunner;
  merchantId: string;
  /** The key's mode: a payment of the other mode is not found, as another merchant's is not. */
  mode: Mode;
  paymentRef: string | undefined;
  parameter?: string;
}): Promise<ReadFollowUpPayment> {
  if (!paymentRef || !PAYMENT_REF.test(paymentRef)) throw unknownPayment(parameter);
  const rows = await database.$queryRaw<Row[]>`SELECT * FROM "cps_read_follow_up_payment"(${merchantId}, ${mode}::"Mode", ${paymentRef})`;
  const row = rows[0];
  if (!row) throw unknownPayment(parameter);
  const authorizedAmount = BigInt(row.authorizedAmount);
  return {
    id: row.id,
    status: row.status,
    processor: row.processor,
    platform: row.platform,
    authorizedAmount,
    currency: row.currency,
    // The order of lib/notifications/resolve-notification-url.ts for purpose "default" with a fallback.
    // (an empty hosted address is passed over there, as here).
    configuredNotificationUrl: (row.hostedUrl || null) ?? row.merchantUrl ?? row.sessionUrl ?? row.paymentUrl ?? null,
    totals: totalsFromRows(row.totals),
    // The totals go back as they were read (cps_follow_up_totals orders them), and are compared as jsonb.
    unchanged: Prisma.sql`"cps_follow_up_unchanged"(${row.id}::text, ${row.status}::text, ${authorizedAmount}::bigint, ${JSON.stringify(row.totals)}::jsonb)`,
  };
}
