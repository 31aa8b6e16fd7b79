import type { Metadata } from "next";
import Link from "next/link";
import { roleCan } from "@/lib/auth/roles";
import { ownRecordLoader } from "@/lib/backoffice/own-record-loader";
import { AUDIT_ACTIONS } from "@/lib/audit/audit";
import { DISPUTE_KIND_LABELS } from "@/lib/backoffice/dispute-filters";
import { getDisputeDetail } from "@/lib/backoffice/queries/get-dispute-detail";
import { noReportingApiSentence } from "@/lib/backoffice/reporting-availability";
import type { DisputeKind } from "@/lib/acquirers/contract";
import { ACQUIRER_LABELS } from "@/lib/acquirers/names";
import { Card, DescriptionList, PageHeader } from "@/components/ui/card";
import { Alert } from "@/components/ui/alert";
import { Badge } from "@/components/ui/badge";
import { formatDateTime, formatMoney } from "@/components/backoffice/format";
import { DisputeStatusBadge, DueDate } from "@/components/backoffice/dispute-parts";
import { CommentForm, DecisionForm, EvidenceForm } from "@/components/backoffice/dispute-forms";
import { commentDisputeAction, decideDisputeAction, uploadDisputeEvidenceAction } from "./actions";
import { BackLink } from "@/components/backoffice/back-link";

export const dynamic = "force-dynamic";

type Params = { params: Promise<{ disputeId: string }> };

const loadDispute = ownRecordLoader((owner, disputeId) => getDisputeDetail({ ...owner, disputeId }));

const kindLabel = (kind: string) => DISPUTE_KIND_LABELS[kind as DisputeKind] ?? kind;

export async function generateMetadata({ params }: Params): Promise<Metadata> {
  const { record: dispute } = await loadDispute((await params).disputeId);
  return { title: `${kindLabel(dispute.kind)} ${dispute.reasonCode} · Dispute` };
}

function auditLine(action: string, details: unknown): string {
  const record = details && typeof details === "object" && !Array.isArray(details) ? (details as Record<string, unknown>) : {};
  const files = Array.isArray(record.files) ? (record.files as { fileName?: string; size?: number }[]).map((file) => `${file.fileName} (${file.size} bytes)`).join(", ") : "";
  const comment = typeof record.comment === "string" ? `“${record.comment}”` : "";
  return [AUDIT_ACTIONS[action as keyof typeof AUDIT_ACTIONS] ?? action, files, comment].filter(Boolean).join(": ");
}

// A dispute's page: the acquirer's facts, the payment, the evidence sent, the audit entries, and for
// owners and developers the answers while the dispute is open and before its due date.
export default async function DisputePage({ params }: Params) {
  const { user, record: dispute } = await loadDispute((await params).disputeId);
  const canAnswer = roleCan(user.role, "payments:write");
  const today = new Date().toISOString().slice(0, 10);
  const money = (value: bigint, currency = dispute.currency) => formatMoney(value, currency);
  const title = `${kindLabel(dispute.kind)} · ${money(dispute.amount)}`;
  return (
    <>
      <BackLink href="/backoffice/disputes">Disputes</BackLink>
      <PageHeader
        title={title}
        description={
          <span className="flex flex-wrap items-center gap-2">
            <DisputeStatusBadge status={dispute.status} />
            {dispute.decision ? <Badge tone="violet">{dispute.decision === "refute" ? "Refuted" : "Accepted"} {formatDateTime(dispute.decidedAt)} UTC</Badge> : null}
            <span className="break-all font-mono text-xs" data-testid="dispute-id">
              {dispute.id}
            </span>
          </span>
        }
      />
      <div className="grid gap-6 xl:grid-cols-3">
        <div className="min-w-0 space-y-6 xl:col-span-2">
          <Card title="Dispute">
            <DescriptionList
              items={[
                { term: "Reason code", value: <span className="font-mono" data-testid="dispute-reason-code">{dispute.reasonCode}</span> },
                { term: "Reason", value: dispute.reason },
                { term: "Kind", value: kindLabel(dispute.kind) },
                { term: "Amount", value: <span data-testid="dispute-detail-amount">{`${money(dispute.amount)}${dispute.partial ? " (part of the payment)" : ""}`}</span> },
                { term: "Due (last day to answer)", value: <DueDate dueOn={dispute.dueOn} open={dispute.status === "open"} today={today} /> },
                { term: "Opened", value: dispute.openedOn },
                { term: "Expires", value: dispute.expiresOn },
                {
                  term: "Payment",
                  value: dispute.payment ? (
                    <Link className="text-indigo-700 hover:underline" href={`/backoffice/payments/${dispute.payment.id}`} data-testid="dispute-payment-link">
                      {dispute.payment.merchantPaymentId ?? dispute.payment.id} · {money(dispute.payment.amount, dispute.payment.currency)}
                    </Link>
                  ) : (
                    <span className="text-amber-800">None of ours: the acquirer&apos;s transaction {dispute.transactionId ?? "(not given)"} matches no operation of this account</span>
                  ),
                },
                { term: "Operation", value: dispute.operation ? `${dispute.operation.type} of ${money(dispute.operation.amount, dispute.operation.currency)}` : null },
                { term: "Acquirer", value: `${ACQUIRER_LABELS[dispute.processor]} · account “${dispute.acquirerAccount.name}”` },
                { term: "Acquirer's dispute id", value: <span className="break-all font-mono text-xs">{dispute.acquirerDisputeId}</span> },
                { term: "Scheme reference", value: dispute.reference ? <span className="break-all font-mono text-xs">{dispute.reference}</span> : null },
                { term: "Answers offered now", value: dispute.answers.length ? dispute.answers.join(", ") : "none" },
                { term: "Last changed (UTC)", value: formatDateTime(dispute.updatedAt) },
              ]}
            />
          </Card>

          <Card title="Evidence" description="Files sent for this dispute, kept as sent. Downloads are attachments only.">
            {dispute.evidence.length === 0 ? (
              <p className="text-sm text-slate-600">No evidence sent yet.</p>
            ) : (
              <ul className="divide-y divide-slate-100 text-sm" data-testid="evidence-files">
                {dispute.evidence.map((file) => (
                  <li key={file.id} className="py-2" data-testid="evidence-file">
                    <a className="break-all font-medium text-indigo-700 hover:underline" href={`/backoffice/disputes/${dispute.id}/evidence/${file.id}`} download>
                      {file.fileName}
                    </a>{" "}
                    <span className="text-xs text-slate-500">
                      {file.contentType} · {file.size} bytes · uploaded {formatDateTime(file.createdAt)} UTC
                    </span>
                    <span className={`block text-xs ${file.sentAt ? "text-emerald-700" : "text-red-700"}`}>
                      {file.sentAt ? `Sent ${formatDateTime(file.sentAt)} UTC` : `Not sent${file.sendError ? `: ${file.sendError}` : ""}`}
                    </span>
                    <span className="block break-all font-mono text-[11px] text-slate-400">sha256 {file.sha256}</span>
                  </li>
                ))}
              </ul>
            )}
          </Card>

          <Card title="Audit" description="Who answered this dispute, and how.">
            {dispute.audit.length === 0 ? (
              <p className="text-sm text-slate-600">Nobody has answered it through the gateway yet.</p>
            ) : (
              <ol className="space-y-2 text-sm" data-testid="dispute-audit">
                {dispute.audit.map((entry) => (
                  <li key={entry.id}>
                    <span className="break-words">{auditLine(entry.action, entry.details)}</span>
                    <span className="block text-xs text-slate-500">
                      {entry.actorName}
                      {entry.actorEmail ? ` (${entry.actorEmail})` : ""} · {formatDateTime(entry.createdAt)} UTC
                    </span>
                  </li>
                ))}
              </ol>
            )}
          </Card>
        </div>

        {/* The answer comes first on a phone (the due date is what matters), beside the facts on wide screens. */}
        <div className="order-first min-w-0 space-y-6 xl:order-none">
          <Card title="Answer" description={dispute.reporting ? `Sent through the ${dispute.reporting.label}; each answer is audited.` : undefined}>
            <div className="space-y-6" data-testid="dispute-answer">
              {!dispute.reporting ? (
                <Alert tone="info">{noReportingApiSentence(dispute.processor)}</Alert>
              ) : dispute.refusal ? (
                <Alert tone="warning" title="No answer can be sent">
                  <span data-testid="dispute-refusal">{`${dispute.refusal.charAt(0).toUpperCase()}${dispute.refusal.slice(1)}.`}</span>
                </Alert>
              ) : !canAnswer ? (
                <p className="text-sm text-slate-600">Owners and developers answer disputes.</p>
              ) : !dispute.acquirerAccount.reportingCredentialsFingerprint ? (
                <Alert tone="warning">The account has no {dispute.reporting.label} credentials: an owner sets them under Settings → Acquirer accounts.</Alert>
              ) : (
                <>
                  <EvidenceForm action={uploadDisputeEvidenceAction} disputeId={dispute.id} rules={dispute.reporting.evidence} label={dispute.reporting.label} />
                  <div className="border-t border-slate-200 pt-4">
                    <CommentForm action={commentDisputeAction} disputeId={dispute.id} />
                  </div>
                  <div className="border-t border-slate-200 pt-4">
                    <h3 className="mb-2 text-sm font-semibold text-slate-900">Refute or accept</h3>
                    <DecisionForm action={decideDisputeAction} disputeId={dispute.id} offered={dispute.answers} />
                  </div>
                </>
              )}
            </div>
          </Card>
        </div>
      </div>
    </>
  );
}
