// Audit rows for back-office changes; written in the same transaction as the change they record.
// Also sign-ins (success and failure, with the client address the sign-in throttle uses), secret
// reveals and operator (CLI) actions, so the log answers "who could act as whom, and when".
// Each row keeps the actor as they were (id, email, name, role at the time: a removed user's history
// stays theirs), the table is append-only (a database trigger, see its migration), and each entry is
// also a line of the structured log (component "audit", event "audit"), so it reaches the central
// log store even if the database is lost.
import { db, type Tx } from "../db";
import { Prisma } from "../generated/prisma/client";
import { newId } from "../ids";
import { log } from "../observability/logger";

/** Every action the log records, with its label on the audit-log page (also the filter's choices). */
export const AUDIT_ACTIONS = {
  "user.signed_in": "Signed in",
  "user.sign_in_failed": "Sign-in failed",
  "user.password_changed": "Changed own password",
  "user.totp_enabled": "Turned on two-factor authentication",
  "user.totp_disabled": "Turned off two-factor authentication",
  "user.recovery_code_used": "Signed in with a recovery code",
  "secret.revealed": "Revealed a secret",
  "api_key.created": "Created API key",
  "api_key.rolled": "Rolled API key",
  "api_key.revoked": "Revoked API key",
  "settings.notification_urls.updated": "Changed notification URLs",
  "settings.checkout_origins.updated": "Changed allowed checkout origins",
  "hosted_integration.created": "Created hosted integration",
  "hosted_integration.updated": "Changed hosted integration",
  "notification.test_sent": "Sent test notification",
  "notification.resent": "Resent notification",
  "team.user_added": "Added user",
  "team.role_changed": "Changed a user's role",
  "team.user_removed": "Removed user",
  "team.password_reset": "Reset a user's password",
  "operator.password_reset": "Password reset by the operator (CLI)",
  "operator.user_created": "User created by the operator (CLI)",
  "secret.rolled": "Rolled the notification signing secret",
  "settings.payout_limits.updated": "Changed payout limits",
  "payment.capture_requested": "Requested capture",
  "payment.refund_requested": "Requested refund",
  "payment.void_requested": "Requested void",
  "acquirer_account.created": "Added acquirer account",
  "acquirer_account.updated": "Changed acquirer account",
  "acquirer_account.credentials_changed": "Changed acquirer account credentials",
  "acquirer_account.connection_tested": "Tested acquirer account connection",
  "operation.settled_by_operator": "Settled an operation whose outcome was unknown",
  "team.invitation_sent": "Invited a person by email",
  "team.invitation_accepted": "Accepted an invitation",
  "team.invitation_revoked": "Revoked an invitation",
  "user.password_reset_requested": "Asked for a password reset link",
  "user.password_reset_by_link": "Reset own password with a mailed link",
  "webhook_endpoint.created": "Added webhook endpoint",
  "webhook_endpoint.disabled": "Disabled webhook endpoint",
  "webhook_endpoint.secret_rolled": "Rolled a webhook endpoint's signing secret",
  "acquirer_account.reporting_credentials_changed": "Changed acquirer account reporting API credentials",
  "dispute.evidence_uploaded": "Uploaded dispute evidence",
  "dispute.commented": "Commented on a dispute",
  "dispute.refuted": "Refuted a dispute",
  "dispute.accepted": "Accepted a dispute",
  "dispute.check_requested": "Checked for new disputes now",
} as const satisfies Record<string, string>;

export type AuditAction = keyof typeof AUDIT_ACTIONS;

/** Who acted: a signed-in back-office user of a merchant (lib/auth/actor.ts's Actor has this shape). */
export interface AuditActor {
  userId: string;
  merchantId: string;
}

export async function recordAudit(
  tx: Tx,
  options: { actor: AuditActor; action: string; target?: string | null; details?: Prisma.InputJsonObject },
): Promise<void> {
  await recordAuditEntry(tx, {
    merchantId: options.actor.merchantId,
    userId: options.actor.userId,
    action: options.action,
    target: options.target,
    details: options.details,
  });
}

/** The role an entry made through the merchant API shows (its actor name is the key's). */
export const API_KEY_ACTOR_ROLE = "api_key";

/** What the log shows for an entry without a user: the operator CLI. */
export const OPERATOR_ACTOR = { actorName: "Operator (CLI)", actorRole: "operator" } as const;

/**
 * Any entry: `userId` is the user who acted (or whose sign-in it was); null for the operator CLI
 * and for the merchant API, where `apiKeyId` names the key that acted (its name and prefix are
 * copied as the actor, role "api_key", so the entry reads the same after the key is revoked).
 * The user's email, name and role are copied onto the row now. `client` is a transaction or the
 * database itself.
 */
export async function recordAuditEntry(
  client: Tx | ReturnType<typeof db>,
  options: {
    merchantId: string;
    userId: string | null;
    /** The merchant API's key, when a request of the merchant's own system acted (userId null). */
    apiKeyId?: string | null;
    action: AuditAction | (string & {});
    target?: string | null;
    details?: Prisma.InputJsonObject;
  },
): Promise<void> {
  const user = options.userId
    ? await client.user.findUnique({ where: { id: options.userId }, select: { email: true, name: true, role: true } })
    : null;
  const apiKey =
    !user && options.apiKeyId
      ? await client.apiKey.findUnique({ where: { id: options.apiKeyId }, select: { name: true, prefix: true } })
      : null;
  const actor = user
    ? { actorEmail: user.email, actorName: user.name, actorRole: user.role as string }
    : apiKey
      ? { actorEmail: null, actorName: `API key ${apiKey.name} (${apiKey.prefix}…)`, actorRole: API_KEY_ACTOR_ROLE }
      : { actorEmail: null, ...OPERATOR_ACTOR };
  const entry = {
    id: newId(),
    merchantId: options.merchantId,
    userId: options.userId,
    ...actor,
    action: options.action,
    target: options.target ?? null,
    details: options.details ?? {},
  };
  await client.auditEntry.create({ data: entry, select: { id: true } });
  // Also to the log pipeline, written once the row is (a change whose transaction then rolls back
  // leaves a line without a row: the line says it was attempted).
  log("audit").info(
    {
      event: "audit",
      auditId: entry.id,
      merchantId: entry.merchantId,
      actorId: entry.userId,
      actorEmail: actor.actorEmail,
      actorName: actor.actorName,
      actorRole: actor.actorRole,
      action: entry.action,
      target: entry.target,
      details: entry.details,
    },
    `audit ${entry.action}`,
  );
}
