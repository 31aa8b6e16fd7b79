import { db } from "../db";
import type { Mode } from "../mode";

export type ApiKeyState = "active" | "expiring" | "expired" | "revoked";

export interface ApiKeyListItem {
  id: string;
  name: string;
  prefix: string;
  createdAt: Date;
  lastUsedAt: Date | null;
  revokedAt: Date | null;
  expiresAt: Date | null;
  rolledFromId: string | null;
  /** What the key may do (api-key-scopes.ts). */
  scopes: string[];
  mode: Mode;
  state: ApiKeyState;
}

export function apiKeyState(key: { revokedAt: Date | null; expiresAt: Date | null }, now = new Date()): ApiKeyState {
  if (key.revokedAt) return "revoked";
  if (key.expiresAt) return key.expiresAt > now ? "expiring" : "expired";
  return "active";
}

/** A merchant's API keys of one mode, newest first, with what the back office shows (never the hash). */
export async function listApiKeys({ merchantId, mode }: { merchantId: string; mode: Mode }): Promise<ApiKeyListItem[]> {
  const keys = await db().apiKey.findMany({
    where: { merchantId, mode },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    select: { id: true, name: true, prefix: true, createdAt: true, lastUsedAt: true, revokedAt: true, expiresAt: true, rolledFromId: true, scopes: true, mode: true },
  });
  const now = new Date();
  return keys.map((key) => ({ ...key, state: apiKeyState(key, now) }));
}
