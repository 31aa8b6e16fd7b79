// The signed-in back-office user as every back-office use case receives it. Use cases scope every
// query by `actor.merchantId` and check `actor.role`, so a page or server action cannot reach
// another merchant's data or do more than the role allows, whatever ids it is handed.
import type { UserRole } from "../generated/prisma/enums";
import { roleCan, type Permission } from "./roles";

export interface Actor {
  userId: string;
  merchantId: string;
  role: UserRole;
}

export class ForbiddenError extends Error {
  constructor(readonly permission: Permission) {
    super("Your role does not allow this. Ask an owner of the account.");
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
}
