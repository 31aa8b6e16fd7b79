// The guards every back-office page, route handler and server action starts with.
import { getServerSession } from "next-auth";
import { cookies } from "next/headers";
import { notFound, redirect } from "next/navigation";
import { cache } from "react";
import { db } from "../db";
import { config } from "../env";
import type { UserRole } from "../generated/prisma/enums";
import { type Actor, ForbiddenError } from "./actor";
import { authOptions, SIGN_IN_PATH } from "./auth-options";
import { roleCan, type Permission } from "./roles";
import { isMode, type Mode } from "../mode";

/** The back-office mode switch's cookie: which mode the pages show and the actions act in. */
export const MODE_COOKIE = "cps_mode";

/** The mode the back office shows: the switch's choice, else the service's default (live in production, test locally). */
export async function currentMode(): Promise<Mode> {
  const value = (await cookies()).get(MODE_COOKIE)?.value;
  return isMode(value) ? value : config().defaultMode;
}

export interface SessionUser extends Actor {
  email: string;
  name: string;
  totpEnabled: boolean;
  merchantName: string;
  /** A temporary password (a reset) must be changed before anything else (PCI DSS v4 8.3.5). */
  mustChangePassword: boolean;
  /** MFA is required (BACKOFFICE_MFA_REQUIRED, always in production) and the user has none yet. */
  mfaEnrolmentRequired: boolean;
}

/** Where a user whose account needs setting up (new password, second factor) is sent first. */
export const ACCOUNT_SETUP_PATH = "/backoffice/secure-account";

export function needsAccountSetup(user: Pick<SessionUser, "mustChangePassword" | "mfaEnrolmentRequired">): boolean {
  return user.mustChangePassword || user.mfaEnrolmentRequired;
}

/** The signed-in user loaded fresh from the database (once per request: layout and page share it), or null. */
export const currentUser = cache(async function currentUser(): Promise<SessionUser | null> {
  const session = (await getServerSession(authOptions())) as { userId?: string; sessionVersion?: number } | null;
  const userId = session?.userId;
  if (!userId || typeof session.sessionVersion !== "number") return null;
  const user = await db().user.findUnique({
    where: { id: userId },
    select: {
      id: true,
      merchantId: true,
      role: true,
      email: true,
      name: true,
      totpEnabledAt: true,
      sessionVersion: true,
      mustChangePassword: true,
      merchant: { select: { name: true, liveModeMinRole: true } },
    },
  });
  // The jwt callback already empties an outdated token; checked here too, on the row every page uses.
  if (!user || user.sessionVersion !== session.sessionVersion) return null;
  return {
    userId: user.id,
    merchantId: user.merchantId,
    role: user.role as UserRole,
    email: user.email,
    name: user.name,
    totpEnabled: user.totpEnabledAt !== null,
    merchantName: user.merchant.name,
    mode: await currentMode(),
    liveModeMinRole: user.merchant.liveModeMinRole as UserRole,
    mustChangePassword: user.mustChangePassword,
    mfaEnrolmentRequired: config().backofficeMfaRequired && user.totpEnabledAt === null,
  };
});

/**
 * For pages: the signed-in user, or a redirect to the sign-in page; a user who must first change a
 * temporary password or set up the second factor is sent to the account setup page (which passes
 * `accountSetup: true`).
 */
export async function requireUser(options: { accountSetup?: boolean } = {}): Promise<SessionUser> {
  const user = await currentUser();
  if (!user) redirect(SIGN_IN_PATH);
  if (!options.accountSetup && needsAccountSetup(user)) redirect(ACCOUNT_SETUP_PATH);
  return user;
}

/** For pages that change things: a user without the permission gets the not-found page. */
export async function requireRole(permission: Permission): Promise<SessionUser> {
  const user = await requireUser();
  if (!roleCan(user.role, permission)) notFound();
  return user;
}

/** For server actions and route handlers: throws instead of redirecting (only setup actions pass `accountSetup`). */
export async function requireActor(permission?: Permission, options: { accountSetup?: boolean } = {}): Promise<SessionUser> {
  const user = await currentUser();
  if (!user) throw new UnauthenticatedError();
  if (!options.accountSetup && needsAccountSetup(user)) throw new AccountSetupRequiredError();
  if (permission && !roleCan(user.role, permission)) throw new ForbiddenError(permission);
  return user;
}

export class AccountSetupRequiredError extends Error {
  constructor() {
    super("Finish securing your account first: set a new password and turn on two-factor authentication.");
    this.name = "AccountSetupRequiredError";
  }
}

export class UnauthenticatedError extends Error {
  constructor() {
    super("Your session has ended. Sign in again.");
    this.name = "UnauthenticatedError";
  }
}
