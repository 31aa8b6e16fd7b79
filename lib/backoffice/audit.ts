// Audit rows for back-office changes; written in the same transaction as the change they record.
// Also sign-ins (success and failure, with the client address the sign-in throttle uses), secret
// reveals and operator (CLI) password resets, so the log answers "who could act as whom, and when".
import { db, type Tx } from "../db";
import { Prisma } from "../generated/prisma/client";
import { newId } from "../ids";
import type { Actor } from "../auth/actor";

/** Every action the log records, with its label on the audit-log page (also the filter's choices). */
export const AUDIT_ACTIONS = {
  "user.signed_in": "Signed in",
  "user.sign_in_failed": "Sign-in failed",
  "user.password_changed": "Changed own password",
  "user.totp_enabled": "Turned on two-factor authentication",
  "user.totp_disabled": "Turned off two-factor authentication",
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
  "payment.capture_requested": "Requested capture",
  "payment.refund_requested": "Requested refund",
  "payment.void_requested": "Requested void",
  "operation.settled_by_operator": "Settled an operation whose outcome was unknown",
} as const satisfies Record<string, string>;

export type AuditAction = keyof typeof AUDIT_ACTIONS;

export async function recordAudit(tx: Tx, options: { actor: Actor; action: string; target?: string | null; details?: Prisma.InputJsonObject }): Promise<void> {
  await recordAuditEntry(tx, { merchantId: options.actor.merchantId, userId: options.actor.userId, action: options.action, target: options.target, details: options.details });
}

/**
 * An entry that has no signed-in actor behind it: a sign-in attempt (the user it was for), or the
 * operator CLI (no user: shown as "system"). `client` is a transaction or the database itself.
 */
export async function recordAuditEntry(
  client: Tx | ReturnType<typeof db>,
  options: { merchantId: string; userId: string | null; action: AuditAction | (string & {}); target?: string | null; details?: Prisma.InputJsonObject },
): Promise<void> {
  await client.auditEntry.create({
    data: {
      id: newId(),
      merchantId: options.merchantId,
      userId: options.userId,
      action: options.action,
      target: options.target ?? null,
      details: options.details ?? {},
    },
    select: { id: true },
  });
}
