"use client";
// Settings → Team's pending invitations (security review 4, M2): who was invited, as what, by whom and
// until when; owners withdraw one with "Revoke". One form state for the list, so the outcome stays on
// the page after the revoked row has gone.
import { useActionState } from "react";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import type { FormAction } from "@/lib/backoffice/action-result";
import { formatDateTime } from "./format";
import { FormMessage } from "./form-parts";

type PlainAction = FormAction;

export interface PendingInvitationRow {
  id: string;
  email: string;
  roleLabel: string;
  invitedBy: string | null;
  expiresAt: Date;
}

export function PendingInvitations({ invitations, revoke }: { invitations: PendingInvitationRow[]; revoke?: PlainAction }) {
  const [state, formAction, pending] = useActionState(revoke ?? (async () => ({ status: "idle" as const })), { status: "idle" });
  return (
    <div className="space-y-3">
      <FormMessage state={state} />
      {invitations.length === 0 ? (
        <p className="text-sm text-slate-600">No pending invitations.</p>
      ) : (
        <ul className="divide-y divide-slate-200">
          {invitations.map((invitation) => (
            <li key={invitation.id} data-testid="pending-invitation" className="flex flex-wrap items-center justify-between gap-2 py-3">
              <div className="min-w-0">
                <p className="truncate font-medium">{invitation.email}</p>
                <p className="text-xs text-slate-500">
                  Invited by {invitation.invitedBy ?? "a former member"} · link valid until {formatDateTime(invitation.expiresAt)} UTC
                </p>
              </div>
              <div className="flex items-center gap-2">
                <Badge tone={invitation.roleLabel === "Owner" ? "violet" : invitation.roleLabel === "Developer" ? "blue" : "slate"}>{invitation.roleLabel}</Badge>
                {revoke ? (
                  <form
                    action={formAction}
                    onSubmit={(event) => {
                      if (!window.confirm(`Revoke the invitation of ${invitation.email}? Its link stops working at once.`)) event.preventDefault();
                    }}
                  >
                    <input type="hidden" name="invitationId" value={invitation.id} />
                    <Button type="submit" variant="danger" disabled={pending} aria-label={`Revoke the invitation of ${invitation.email}`}>
                      Revoke
                    </Button>
                  </form>
                ) : null}
              </div>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
