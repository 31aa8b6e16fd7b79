// The signed-in back-office user as every back-office use case receives it. Use cases scope every
// query by `actor.merchantId` and `actor.mode` and check `actor.role`, so a page or server action
// cannot reach another merchant's data or the other mode's, or do more than the role allows,
// whatever ids it is handed.
import type { UserRole } from "../generated/prisma/enums";
import type { Mode } from "../mode";
import { roleCan, roleMayActInLiveMode, type Permission } from "./roles";

export interface Actor {
  userId: string;
  merchantId: string;
  role: UserRole;
  /** The mode the back office shows (the mode switch): reads and writes are of this mode only. */
  mode: Mode;
  /**
   * The merchant's owner setting: the lowest role that may act in live mode (absent: developers and
   * owners, as in test mode). Loaded with the user (lib/auth/session.ts).
   */
  liveModeMinRole?: UserRole;
}

export class ForbiddenError extends Error {
  constructor(
    readonly permission: Permission,
    message = "Your role does not allow this. Ask an owner of the account.",
  ) {
    super(message);
    this.name = "ForbiddenError";
  }
}

/** A record that does not exist or belongs to another merchant: the two look the same on purpose. */
export class NotFoundError extends Error {
  constructor(what: string) {
    super(`${what} not found`);
    this.name = "NotFoundError";
  }
}

export function assertCan(actor: Actor, permission: Permission): void {
  if (!roleCan(actor.role, permission)) throw new ForbiddenError(permission);
  if (actor.mode === "live" && !roleMayActInLiveMode(actor.role, permission, actor.liveModeMinRole)) {
    throw new ForbiddenError(
      permission,
      "Only owners may act in live mode on this account (an owner's setting, Settings → Team). Switch to test mode, or ask an owner.",
    );
  }
}
