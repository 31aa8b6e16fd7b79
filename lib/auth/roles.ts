// Who may do what in the back office. Roles follow the dashboards merchants know (Stripe, Adyen):
// owners run the account and the team, developers run the integration (keys, notification URLs,
// hosted fields) and payment operations, viewers only read.
import type { UserRole } from "../generated/prisma/enums";

export type Permission =
  /** Create, roll and revoke API keys. */
  | "keys:write"
  /** Notification URLs and hosted integrations. */
  | "settings:write"
  /** Capture, refund, void and resend notifications. */
  | "payments:write"
  /** Add back-office users and change their roles. */
  | "team:write"
  /**
   * Reveal and roll the notification signing secret, set payout limits: whoever holds the secret can
   * forge "approved" notifications to the merchant, and payouts move money out (review 3, M3, M7).
   */
  | "secrets:manage"
  /** See and change the merchant's acquirer accounts (credentials, MID, descriptor): owners only. */
  | "acquirer_accounts:write"
  /** Record the acquirer's answer to an operation whose outcome is unknown (docs/operations.md). */
  | "payments:settle";

const PERMISSIONS: Record<UserRole, readonly Permission[]> = {
  OWNER: ["keys:write", "settings:write", "payments:write", "team:write", "secrets:manage", "acquirer_accounts:write", "payments:settle"],
  DEVELOPER: ["keys:write", "settings:write", "payments:write"],
  VIEWER: [],
};

export const ROLE_LABELS: Record<UserRole, string> = { OWNER: "Owner", DEVELOPER: "Developer", VIEWER: "Viewer" };

export function roleCan(role: UserRole, permission: Permission): boolean {
  return PERMISSIONS[role].includes(permission);
}

const RANK: Record<UserRole, number> = { VIEWER: 0, DEVELOPER: 1, OWNER: 2 };

/**
 * What acts on live payments, keys and addresses: limited in live mode by the merchant's owner
 * setting (the lowest role that may act there). Team, acquirer accounts and secrets are owners'
 * anyway, in either mode.
 */
const LIVE_GATED: readonly Permission[] = ["keys:write", "settings:write", "payments:write"];

/** Whether `role` may use `permission` in live mode, given the merchant's lowest role for live mode. */
export function roleMayActInLiveMode(role: UserRole, permission: Permission, liveModeMinRole: UserRole = "DEVELOPER"): boolean {
  return !LIVE_GATED.includes(permission) || RANK[role] >= RANK[liveModeMinRole];
}
