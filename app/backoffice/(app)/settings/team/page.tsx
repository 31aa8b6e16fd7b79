import type { Metadata } from "next";
import { requireUser } from "@/lib/auth/session";
import { ROLE_LABELS, roleCan } from "@/lib/auth/roles";
import { listTeam } from "@/lib/backoffice/queries/list-team";
import { listPendingInvitations } from "@/lib/backoffice/queries/list-pending-invitations";
import { PendingInvitations } from "@/components/backoffice/pending-invitations";
import { Card, CardPage } from "@/components/ui/card";
import { Badge } from "@/components/ui/badge";
import { AddTeamMemberForm } from "@/components/backoffice/add-team-member-form";
import { MIN_PASSWORD_LENGTH } from "@/lib/auth/password";
import { formatDateTime } from "@/components/backoffice/format";
import { TeamMemberControls } from "@/components/backoffice/team-member-controls";
import { LiveModeRoleForm } from "@/components/backoffice/live-mode-role-form";
import { InviteTeamMemberForm } from "@/components/backoffice/mail-link-forms";
import {
  addTeamMemberAction,
  changeTeamMemberAction,
  inviteTeamMemberAction,
  resetTeamMemberPasswordAction,
  revokeInvitationAction,
  setLiveModeRoleAction,
} from "./actions";

export const metadata: Metadata = { title: "Team" };
export const dynamic = "force-dynamic";

export default async function TeamPage() {
  const user = await requireUser();
  const [team, invitations] = await Promise.all([listTeam({ merchantId: user.merchantId }), listPendingInvitations({ merchantId: user.merchantId })]);
  const canManage = roleCan(user.role, "team:write");
  return (
    <CardPage title="Team" description="People who can sign in to this account's back office, and their roles.">
      <Card>
        <ul className="divide-y divide-slate-200">
          {team.map((member) => (
            <li key={member.id} className="flex flex-wrap items-center justify-between gap-2 py-3">
              <div className="min-w-0">
                <p className="font-medium">{member.name}</p>
                <p className="truncate text-sm text-slate-500">{member.email}</p>
              </div>
              <div className="flex flex-wrap items-center gap-2 text-xs text-slate-500">
                <Badge tone={member.role === "OWNER" ? "violet" : member.role === "DEVELOPER" ? "blue" : "slate"}>{ROLE_LABELS[member.role]}</Badge>
                {member.totpEnabledAt ? <Badge tone="green">2FA on</Badge> : <Badge tone="amber">2FA off</Badge>}
                <span>Last sign-in {member.lastSignInAt ? `${formatDateTime(member.lastSignInAt)} UTC` : "never"}</span>
              </div>
              {canManage && member.id !== user.userId ? <TeamMemberControls action={changeTeamMemberAction} resetAction={resetTeamMemberPasswordAction} userId={member.id} email={member.email} role={member.role} totpEnabled={user.totpEnabled} /> : null}
            </li>
          ))}
        </ul>
      </Card>
      <Card
        title="Pending invitations"
        description="Links sent and not used yet. An invitation ends when its sender is removed or is no longer an owner; an owner can revoke any of them."
      >
        <PendingInvitations
          invitations={invitations.map((invitation) => ({
            id: invitation.id,
            email: invitation.email,
            roleLabel: ROLE_LABELS[invitation.role],
            invitedBy: invitation.invitedBy,
            expiresAt: invitation.expiresAt,
          }))}
          revoke={canManage ? revokeInvitationAction : undefined}
        />
      </Card>
      {canManage ? (
        <Card title="Invite by email" description="The person gets a link (once, for 72 hours) to choose their own name and password.">
          <InviteTeamMemberForm action={inviteTeamMemberAction} totpEnabled={user.totpEnabled} />
        </Card>
      ) : null}
      {canManage ? (
        <Card title="Add a user">
          <AddTeamMemberForm action={addTeamMemberAction} totpEnabled={user.totpEnabled} minLength={MIN_PASSWORD_LENGTH} />
        </Card>
      ) : null}
      <Card title="Live mode">
        {canManage ? (
          <LiveModeRoleForm action={setLiveModeRoleAction} current={user.liveModeMinRole ?? "DEVELOPER"} totpEnabled={user.totpEnabled} />
        ) : (
          <p className="text-sm text-slate-600">
            {user.liveModeMinRole === "OWNER"
              ? "Only owners may act in live mode (capture, refund, void, resend, live keys and addresses). Roles apply in test mode as shown."
              : "Owners and developers may act in live mode, as in test mode."}
          </p>
        )}
      </Card>
    </CardPage>
  );
}
