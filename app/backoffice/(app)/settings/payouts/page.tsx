import type { Metadata } from "next";
import { requireUser } from "@/lib/auth/session";
import { roleCan } from "@/lib/auth/roles";
import { db } from "@/lib/db";
import { Card, CardPage } from "@/components/ui/card";
import { Alert } from "@/components/ui/alert";
import { PayoutLimitForm } from "@/components/backoffice/payout-limit-form";
import { formatMoney } from "@/components/backoffice/format";
import { savePayoutLimitAction } from "./actions";

export const metadata: Metadata = { title: "Payouts" };
export const dynamic = "force-dynamic";

// Settings → Payouts (review 3, M7): what the merchant's API keys may pay out, per currency.
export default async function PayoutsPage() {
  const user = await requireUser();
  const limits = await db().payoutLimit.findMany({ where: { merchantId: user.merchantId }, orderBy: { currency: "asc" }, select: { currency: true, perPayout: true, perDay: true, updatedAt: true } });
  const canWrite = roleCan(user.role, "secrets:manage");
  return (
    <CardPage title="Payouts" description="POST /api/{paymentid}/payout pays money out to the card of an approved cardholder payment. It needs a key with the payouts scope and stays within these limits; a currency without limits takes no payouts.">
      <Card title="Limits">
        {limits.length === 0 ? (
          <p className="text-sm text-slate-600">No limits: payouts are refused in every currency.</p>
        ) : (
          <ul className="divide-y divide-slate-200" aria-label="Payout limits">
            {limits.map((limit) => (
              <li key={limit.currency} className="flex flex-wrap justify-between gap-2 py-2 text-sm" data-testid="payout-limit-row">
                <span className="font-medium">{limit.currency}</span>
                <span>
                  {formatMoney(limit.perPayout, limit.currency)} per payout · {formatMoney(limit.perDay, limit.currency)} per 24 hours
                </span>
              </li>
            ))}
          </ul>
        )}
      </Card>
      {canWrite ? (
        <Card title="Set a currency's limits" description="Asks for your password. Recorded in the audit log.">
          <PayoutLimitForm action={savePayoutLimitAction} totpEnabled={user.totpEnabled} />
        </Card>
      ) : (
        <Alert tone="info">Only owners can change payout limits.</Alert>
      )}
    </CardPage>
  );
}
