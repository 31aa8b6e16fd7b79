// The life-cycle notification (spec 6.6) of each stored payment named, at its life-cycle address,
// written in the caller's transaction (outbox): an issuer's card update (lib/payments/apply-card-update.ts)
// and a cardholder's stop order (lib/payments/stop-merchant-initiated-payments.ts) both end here.
// The caller dispatches the returned ids after its commit.
import type { Tx } from "../db";
import { lifecycleNotificationBody, type LifecycleNotificationBody } from "../notifications/bodies";
import { enqueueNotification } from "../notifications/enqueue-notification";
import { resolveNotificationUrl } from "../notifications/resolve-notification-url";
import type { Mode } from "../mode";

export interface StoredPaymentToNotify {
  id: string;
  merchantId: string;
  mode: Mode;
  merchantPaymentId: string | null;
  session: { hostedIntegrationId: string | null } | null;
}

/**
 * Returns the ids written. `idOf` makes each id deterministic, so a retried caller writes none twice
 * (an id already stored is skipped); a payment without a life-cycle address gets none.
 */
export async function enqueueLifecycleNotifications({
  tx,
  payments,
  change,
  idOf,
}: {
  tx: Tx;
  payments: readonly StoredPaymentToNotify[];
  change: LifecycleNotificationBody["change"];
  idOf: (paymentId: string) => string;
}): Promise<string[]> {
  const created: string[] = [];
  for (const payment of payments) {
    const id = idOf(payment.id).replace(/[^A-Za-z0-9_-]/g, "");
    if (await tx.notification.findUnique({ where: { id }, select: { id: true } })) continue;
    const url = await resolveNotificationUrl({
      merchantId: payment.merchantId,
      mode: payment.mode,
      hostedIntegrationId: payment.session?.hostedIntegrationId,
      purpose: "lifecycle",
      tx,
    });
    if (!url) continue;
    const body = lifecycleNotificationBody({ paymentId: payment.id, merchantPaymentId: payment.merchantPaymentId, change });
    created.push(await enqueueNotification({ id, merchantId: payment.merchantId, mode: payment.mode, paymentId: payment.id, kind: "lifecycle", url, body, tx }));
  }
  return created;
}
