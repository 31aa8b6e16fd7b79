import type { Metadata } from "next";
import Link from "next/link";
import { roleCan } from "@/lib/auth/roles";
import { ownRecordLoader } from "@/lib/backoffice/own-record-loader";
import { getPaymentDetailOrThrow } from "@/lib/backoffice/queries/get-payment-detail";
import { describeChallengeIndicator } from "@/lib/validation/challenge-preference";
import { Card, DescriptionList, PageHeader } from "@/components/ui/card";
import { PaymentStateBadge, StateBadge } from "@/components/backoffice/status-badge";
import { formatDateTime, formatMoney, formatPaymentAmount } from "@/components/backoffice/format";
import { PaymentOperationForm } from "@/components/backoffice/payment-operation-form";
import { ResendNotificationButton } from "@/components/backoffice/resend-notification-button";
import { DeliveryStateBadge } from "@/components/backoffice/delivery-state-badge";
import { deliveryState } from "@/lib/backoffice/delivery-state";
import { refundReasonLabel } from "@/lib/backoffice/refund-reasons";
import { SettleOperationForm } from "@/components/backoffice/settle-operation-form";
import { RefreshWhilePending } from "@/components/backoffice/refresh-while-pending";
import { DisputeStatusBadge } from "@/components/backoffice/dispute-parts";
import { listDisputes } from "@/lib/disputes/list-disputes";
import { DISPUTE_KIND_LABELS } from "@/lib/backoffice/dispute-filters";
import type { DisputeKind } from "@/lib/acquirers/contract";
import { operateOnPaymentAction, settleOperationAction } from "./actions";
import { resendNotificationAction } from "./resend-action";
import { BackLink } from "@/components/backoffice/back-link";

export const dynamic = "force-dynamic";

type Params = { params: Promise<{ paymentId: string }> };

const loadPayment = ownRecordLoader((owner, paymentId) => getPaymentDetailOrThrow({ ...owner, paymentId }));

/** The merchant's own id names the page (the browser tab, history and bookmarks), as the heading does. */
export async function generateMetadata({ params }: Params): Promise<Metadata> {
  const { record: payment } = await loadPayment((await params).paymentId);
  return { title: payment.merchantPaymentId ? `${payment.merchantPaymentId} · Payment` : "Payment" };
}

export default async function PaymentPage({ params }: Params) {
  const { user, record: payment } = await loadPayment((await params).paymentId);
  const disputes = await listDisputes({ merchantId: user.merchantId, mode: user.mode, paymentId: payment.id, limit: 50 });
  const money = (value: bigint) => formatMoney(value, payment.currency);
  const card = payment.storedCard;
  const canOperate = roleCan(user.role, "payments:write");
  const canSettle = roleCan(user.role, "payments:settle");
  const uncaptured = payment.authorizedAmount - payment.capturedAmount;
  const refundable = payment.capturedAmount - payment.refundedAmount;
  // A payout sent money to the card: there is nothing to capture, refund or void.
  const payout = payment.paymentType === "payout";
  const canCapture = !payout && ["AUTHORIZED", "CAPTURED", "REFUNDED"].includes(payment.status) && uncaptured > 0n;
  const canRefund = !payout && ["CAPTURED", "REFUNDED"].includes(payment.status) && refundable > 0n;
  const canVoid = !payout && payment.status === "AUTHORIZED" && payment.capturedAmount === 0n;
  const showActions = canOperate && (canCapture || canRefund || canVoid);
  // An operation whose answer is on its way (not one left for an operator): the page follows it.
  const waitingForAcquirer = payment.operations.some((operation) => operation.status === "pending" && !operation.operatorAlertedAt);
  const related = [
    ...(payment.parent ? [{ ...payment.parent, relation: "Parent: its card was used for this payment" }] : []),
    ...payment.children.map((child) => ({ ...child, relation: child.paymentType === "payout" ? "Payout to this payment's card" : `${child.paymentType === "cit" ? "Payment" : "MIT"} on this payment's card` })),
  ];

  return (
    <>
      <BackLink href="/backoffice/payments">Payments</BackLink>
      <PageHeader
        // The order number the merchant knows the payment by leads; the hex paymentid is under it.
        title={[payment.merchantPaymentId, payout ? `Payout ${formatPaymentAmount(payment)}` : money(payment.amount)].filter(Boolean).join(" · ")}
        description={
          <span className="flex flex-wrap items-center gap-2">
            <PaymentStateBadge state={payment.displayState} />
            <span className="break-all font-mono text-xs" data-testid="payment-id">{payment.id}</span>
          </span>
        }
      />
      {/* On a phone the actions come first; on wide screens they head the right-hand column. */}
      <div className="grid gap-6 xl:grid-cols-3 xl:grid-rows-[auto_1fr]">
        {showActions ? (
          <div className="min-w-0 xl:col-start-3 xl:row-start-1" data-testid="payment-actions">
            <Card title="Actions" description="Sent through the merchant API's own rules; the result is notified like an API request's. Each asks you to confirm.">
              <div className="space-y-3">
                {canCapture ? <PaymentOperationForm action={operateOnPaymentAction} paymentId={payment.id} operation="capture" currency={payment.currency} maxMinor={uncaptured.toString()} maxLabel={money(uncaptured)} /> : null}
                {canRefund ? <PaymentOperationForm action={operateOnPaymentAction} paymentId={payment.id} operation="refund" currency={payment.currency} maxMinor={refundable.toString()} maxLabel={money(refundable)} variant="secondary" /> : null}
                {canVoid ? <PaymentOperationForm action={operateOnPaymentAction} paymentId={payment.id} operation="void" currency={payment.currency} maxMinor={payment.authorizedAmount.toString()} maxLabel={money(payment.authorizedAmount)} variant="danger" /> : null}
              </div>
            </Card>
          </div>
        ) : null}
        <div className="min-w-0 space-y-6 xl:col-span-2 xl:col-start-1 xl:row-span-2 xl:row-start-1">
          <Card title="Payment">
            <DescriptionList
              items={[
                { term: "paymentid", value: <span className="font-mono text-xs">{payment.id}</span> },
                { term: "merchantpaymentid", value: payment.merchantPaymentId },
                { term: "Reference", value: payment.reference },
                { term: "Payment type", value: payout ? "Payout (money sent to the card)" : payment.paymentType },
                { term: "Processor", value: payment.acquirerAccount ? `${payment.processor} · account “${payment.acquirerAccount.name}”` : payment.processor },
                { term: "Created (UTC)", value: formatDateTime(payment.createdAt) },
                { term: "Authorized", value: money(payment.authorizedAmount) },
                { term: "Captured", value: money(payment.capturedAmount) },
                { term: "Refunded", value: money(payment.refundedAmount) },
                { term: "Balance", value: money(payment.balance) },
                { term: "Text on statement", value: payment.textOnStatement },
                { term: "SCA / ECI", value: payment.sca || payment.eci ? `${payment.sca ?? "—"} / ${payment.eci ?? "—"}` : null },
                { term: "Parent payment", value: payment.parentPaymentId ? <Link className="font-mono text-xs text-indigo-700 hover:underline" href={`/backoffice/payments/${payment.parentPaymentId}`}>{payment.parentPaymentId}</Link> : null },
                { term: "Hosted integration", value: payment.session?.hostedIntegration ? `${payment.session.hostedIntegration.name} (${payment.session.hostedIntegration.hostedId})` : null },
                { term: "Customer", value: [payment.customerFirstName, payment.customerSurname].filter(Boolean).join(" ") || null },
                { term: "Customer email", value: payment.customerEmail },
                { term: "Note", value: payment.note },
                { term: "Tags", value: payment.tags },
              ]}
            />
          </Card>

          <div id="operations" className="scroll-mt-4">
          <Card title="Operations" description="Every authorization, capture, refund and void, oldest first." actions={waitingForAcquirer ? <RefreshWhilePending /> : undefined}>
            {payment.routingStopped ? (
              <p className="mb-3 rounded-md bg-amber-50 p-3 text-sm text-amber-900 ring-1 ring-inset ring-amber-200" data-testid="routing-stopped">
                {payment.routingStopped.replace(/^routing stopped: /, "Routing stopped: ")} (docs/integration.md, &quot;Routing by decline class&quot;).
              </p>
            ) : null}
            {payment.operations.length === 0 ? (
              <p className="text-sm text-slate-600">No operations yet.</p>
            ) : (
              <ol className="relative space-y-4 border-l border-slate-200 pl-5" aria-label="Operations timeline">
                {payment.operations.map((operation) => (
                  <li key={operation.id} className="relative" data-testid="operation">
                    <span aria-hidden className={`absolute -left-[1.65rem] top-1.5 h-2.5 w-2.5 rounded-full ${operation.status === "approved" ? "bg-emerald-500" : operation.status === "pending" ? "bg-amber-400" : "bg-red-500"}`} />
                    <div className="flex flex-wrap items-center gap-2">
                      <span className="font-medium capitalize">{operation.type}</span>
                      <span className="tabular-nums">{formatMoney(operation.amount, operation.currency)}</span>
                      <StateBadge state={operation.status} />
                      {operation.processor ? <span className="text-xs text-slate-500">via {operation.processor}{operation.acquirerAccount ? ` (account “${operation.acquirerAccount.name}”)` : ""}{operation.routingAttempt > 1 ? ` (routing attempt ${operation.routingAttempt})` : ""}</span> : null}
                    </div>
                    <p className="mt-0.5 break-all text-xs text-slate-500">
                      {formatDateTime(operation.createdAt)} UTC
                      {operation.completedAt ? ` · answered ${formatDateTime(operation.completedAt)} UTC` : ""}
                      {operation.responseCode ? ` · response code ${operation.responseCode}` : ""}
                      {operation.authorizationCode ? ` · auth code ${operation.authorizationCode}` : ""}
                      {operation.responseId ? ` · responseid ${operation.responseId}` : ""}
                    </p>
                    {operation.errorMessage ? <p className="mt-0.5 text-xs text-red-700">{operation.errorMessage}</p> : null}
                    {operation.status === "pending" && operation.operatorAlertedAt ? (
                      <div className="mt-1 rounded bg-red-50 px-2 py-1 text-xs text-red-800" data-testid="operator-needed">
                        <p className="font-medium">
                          Operator needed: the acquirer&apos;s answer is unknown since {formatDateTime(operation.outcomeUnknownSince ?? operation.createdAt)} UTC and
                          no look-up settled it. The amount stays reserved; check the acquirer&apos;s report and settle it (docs/operations.md, &quot;Unknown outcomes&quot;).
                        </p>
                        {canSettle ? (
                          <SettleOperationForm action={settleOperationAction} operationId={operation.id} operationType={operation.type} totpEnabled={user.totpEnabled} />
                        ) : (
                          <p className="mt-1">An owner of the account can settle it here.</p>
                        )}
                      </div>
                    ) : operation.lateAnswerAt ? (
                      <p className="mt-1 rounded bg-red-50 px-2 py-1 text-xs font-medium text-red-800" data-testid="late-answer">
                        Operator needed: the acquirer contradicts how this operation was settled: {operation.lateAnswer}
                      </p>
                    ) : operation.status === "pending" && operation.outcomeUnknownSince && operation.errorMessage ? (
                      <p className="mt-1 text-xs text-amber-800">Outcome unknown: being looked up at the acquirer (amount reserved).</p>
                    ) : null}
                    {operation.reason ? <p className="mt-0.5 text-xs text-slate-600">Reason: {refundReasonLabel(operation.reason)}</p> : null}
                    {operation.note ? <p className="mt-0.5 text-xs text-slate-600">Note: {operation.note}</p> : null}
                  </li>
                ))}
              </ol>
            )}
          </Card>
          </div>

          <Card title="Notifications" description="Every notification about this payment and each delivery attempt. Only HTTP 200 counts as delivered.">
            {payment.notifications.length === 0 ? (
              <p className="text-sm text-slate-600">No notifications sent for this payment.</p>
            ) : (
              <ul className="space-y-4">
                {payment.notifications.map((notification) => (
                  <li key={notification.id} className="rounded-md p-3 ring-1 ring-slate-200" data-testid="notification">
                    <div className="flex flex-wrap items-center justify-between gap-2">
                      <div className="flex min-w-0 flex-wrap items-center gap-2">
                        <span className="font-medium">{notification.kind.replace("_", " ")}</span>
                        <DeliveryStateBadge state={deliveryState(notification)} />
                        <span className="truncate text-xs text-slate-500">{notification.url}</span>
                      </div>
                      {canOperate ? <ResendNotificationButton action={resendNotificationAction} notificationId={notification.id} paymentId={payment.id} /> : null}
                    </div>
                    <p className="mt-1 break-all text-xs text-slate-500">
                      webhook-id {notification.id} · created {formatDateTime(notification.createdAt)} UTC
                      {notification.nextAttemptAt ? ` · next attempt ${formatDateTime(notification.nextAttemptAt)} UTC` : ""}
                      {notification.status === "pending" && notification.heldBackAt ? " · waiting for an earlier notification of this payment (sent when it is acknowledged or given up)" : ""}
                    </p>
                    {notification.attempts.length > 0 ? (
                      <div className="mt-2 overflow-x-auto">
                        <table className="min-w-full text-xs">
                          <thead className="text-left text-slate-500">
                            <tr>
                              <th scope="col" className="py-1 pr-3">#</th>
                              <th scope="col" className="py-1 pr-3">Sent (UTC)</th>
                              <th scope="col" className="py-1 pr-3">Answer</th>
                              <th scope="col" className="py-1 pr-3">Time</th>
                              <th scope="col" className="py-1">Response</th>
                            </tr>
                          </thead>
                          <tbody className="divide-y divide-slate-100">
                            {notification.attempts.map((attempt) => (
                              <tr key={attempt.id} data-testid={attempt.resend ? "attempt-resend" : "attempt"}>
                                <td className="py-1 pr-3">{attempt.resend ? "resend" : attempt.attemptNumber}</td>
                                <td className="whitespace-nowrap py-1 pr-3">{formatDateTime(attempt.startedAt)}</td>
                                <td className={`py-1 pr-3 font-medium ${attempt.statusCode === 200 ? "text-emerald-700" : "text-red-700"}`}>{attempt.statusCode ? `HTTP ${attempt.statusCode}` : attempt.error ?? "no answer"}</td>
                                <td className="py-1 pr-3 tabular-nums">{attempt.durationMs} ms</td>
                                <td className="max-w-[16rem] truncate py-1 font-mono" title={attempt.responseBody ?? undefined}>{attempt.responseBody || "—"}</td>
                              </tr>
                            ))}
                          </tbody>
                        </table>
                      </div>
                    ) : (
                      <p className="mt-2 text-xs text-slate-500">Not attempted yet.</p>
                    )}
                  </li>
                ))}
              </ul>
            )}
          </Card>
        </div>

        <div className={`min-w-0 space-y-6 xl:col-start-3 ${showActions ? "xl:row-start-2" : "xl:row-span-2 xl:row-start-1"}`}>
          <Card title="Card">
            {card ? (
              <DescriptionList
                items={[
                  { term: "Card", value: <span data-testid="card-summary">{`${card.scheme} •••• ${card.last4}`}</span> },
                  { term: "Expiry date", value: `${String(card.expMonth).padStart(2, "0")}/${card.expYear}` },
                  { term: "BIN", value: card.bin },
                  { term: "Funding", value: card.funding },
                  { term: "Segment", value: card.segment },
                  { term: "Issuer", value: card.issuer },
                  { term: "Country", value: card.country },
                  { term: "PAN type", value: card.panType },
                  { term: "PAR", value: card.par ? <span className="font-mono text-xs">{card.par}</span> : null },
                  // Shown only once the cardholder stopped them (a stop-recurring answer, decision 0191).
                  ...(card.mitStoppedAt
                    ? [
                        {
                          term: "MITs",
                          value: (
                            <span className="text-amber-900" data-testid="card-mit-stopped">
                              Stopped by the cardholder&apos;s stop order: {card.mitStopProcessor} answered {card.mitStopResponseCode}
                              {card.mitStopAcquirerCode && card.mitStopAcquirerCode !== card.mitStopResponseCode ? ` (${card.mitStopAcquirerCode})` : ""} on{" "}
                              {formatDateTime(card.mitStoppedAt)}. No MIT is sent for this card; a new cardholder payment stores it again.
                            </span>
                          ),
                        },
                      ]
                    : []),
                ]}
              />
            ) : (
              <p className="text-sm text-slate-600">No card stored for this payment.</p>
            )}
          </Card>
          {disputes.length > 0 ? (
            <Card title="Disputes" description="Chargebacks and retrieval requests the acquirer reported for this payment.">
              <ul className="space-y-2 text-sm" data-testid="payment-disputes">
                {disputes.map((dispute) => (
                  <li key={dispute.disputeId} data-testid="payment-dispute">
                    <Link className="font-medium text-indigo-700 hover:underline" href={`/backoffice/disputes/${dispute.disputeId}`}>
                      {DISPUTE_KIND_LABELS[dispute.kind as DisputeKind] ?? dispute.kind} · {dispute.reasonCode}
                    </Link>{" "}
                    · {formatMoney(dispute.amount, dispute.currency)} <DisputeStatusBadge status={dispute.status} />
                    <span className="block text-xs text-slate-500">
                      {dispute.reason} · opened {dispute.openedOn}
                      {dispute.dueOn ? ` · due ${dispute.dueOn}` : ""}
                    </span>
                  </li>
                ))}
              </ul>
            </Card>
          ) : null}
          {related.length > 0 ? (
            <Card title="Related payments">
              <ul className="space-y-2 text-sm" data-testid="related-payments">
                {related.map((other) => (
                  <li key={other.id}>
                    <Link className="font-medium text-indigo-700 hover:underline" href={`/backoffice/payments/${other.id}`}>
                      {other.merchantPaymentId ?? other.id}
                    </Link>{" "}
                    · {formatPaymentAmount(other)} · {other.status.toLowerCase()}
                    <span className="block text-xs text-slate-500">
                      {other.relation} · {formatDateTime(other.createdAt)} UTC
                    </span>
                  </li>
                ))}
              </ul>
            </Card>
          ) : null}
          {payment.authentications.length > 0 ? (
            <Card title="3-D Secure">
              <ul className="space-y-2 text-sm">
                {payment.authentications.map((auth) => (
                  <li key={auth.id} data-testid="authentication">
                    <span className="font-medium">{auth.state}</span>
                    {auth.account ? ` · for ${auth.account.processor} (${auth.account.name})` : ""}
                    {auth.reason === "routing" ? " · again, for the next processor after a decline" : auth.reason === "step-up" ? " · step-up: the issuer asked for authentication" : ""} · transStatus {auth.transStatus ?? "—"}
                    {auth.transStatusReason ? ` (reason ${auth.transStatusReason})` : ""} · ECI {auth.eci ?? "—"}{" "}
                    {auth.challengeRequired ? `· challenge${auth.acsChallengeMandated === "Y" ? " (mandated by the issuer)" : ""}` : "· frictionless"}
                    <span className="block text-xs text-slate-500">
                      Asked: {describeChallengeIndicator(auth.challengeIndicator) ?? "—"} · EMV 3DS {auth.messageVersion} ·{" "}
                      {formatDateTime(auth.createdAt)} UTC
                    </span>
                  </li>
                ))}
              </ul>
            </Card>
          ) : null}
        </div>
      </div>
    </>
  );
}
