// The single-use links of invitations and password resets (model UserToken): a random token in the
// link, only its HMAC stored; found by that HMAC, refused once used, revoked or expired.
import { createHmac, randomBytes } from "node:crypto";
import type { Tx } from "../db";
import { config } from "../env";
import type { UserTokenKind } from "../generated/prisma/enums";

export const TOKEN_LIFETIME_MS: Record<UserTokenKind, number> = {
  invitation: 72 * 60 * 60_000,
  password_reset: 30 * 60_000,
};

export function newUserToken(): { token: string; tokenHash: string } {
  const token = randomBytes(32).toString("base64url");
  return { token, tokenHash: hashUserToken(token) };
}

export function hashUserToken(token: string): string {
  return createHmac("sha256", config().secrets.apiKeySecret).update(`user-token:${token}`).digest("hex");
}

export class InvalidUserTokenError extends Error {
  constructor() {
    super("This link has expired or was used already. Ask for a new one.");
    this.name = "InvalidUserTokenError";
  }
}

/**
 * The token's row, locked, while it is unused and unexpired; marks it used in the caller's
 * transaction, so of two uses at once only one gets it.
 */
export async function spendUserToken(tx: Tx, { token, kind, now = new Date() }: { token: string; kind: UserTokenKind; now?: Date }) {
  if (!/^[A-Za-z0-9_-]{43}$/.test(token)) throw new InvalidUserTokenError();
  const [row] = await tx.$queryRaw<{ id: string }[]>`
    UPDATE "UserToken" SET "usedAt" = ${now}
    WHERE "tokenHash" = ${hashUserToken(token)} AND "kind" = ${kind}::"UserTokenKind" AND "usedAt" IS NULL AND "revokedAt" IS NULL
      AND "expiresAt" > ${now}
    RETURNING "id"`;
  if (!row) throw new InvalidUserTokenError();
  return tx.userToken.findUniqueOrThrow({ where: { id: row.id } });
}

/** A token's row when the link is still good (to show the form), else null. Marks nothing. */
export async function peekUserToken(tx: Tx, { token, kind, now = new Date() }: { token: string; kind: UserTokenKind; now?: Date }) {
  if (!/^[A-Za-z0-9_-]{43}$/.test(token)) return null;
  return tx.userToken.findFirst({ where: { tokenHash: hashUserToken(token), kind, usedAt: null, revokedAt: null, expiresAt: { gt: now } } });
}

/** The conditions of a link still usable at `now`. */
export function pendingToken(now: Date) {
  return { usedAt: null, revokedAt: null, expiresAt: { gt: now } } as const;
}
