import { z } from "zod";
import { db, type Tx } from "../db";
import { newId } from "../ids";
import { generateApiKey, hashApiKey, visiblePrefix } from "./api-key-secret";
import { ApiKeyNotFoundError } from "./revoke-api-key";
import { recordAuditEntry } from "../audit/audit";
import type { Mode } from "../mode";

/** The grace periods offered when rolling, in seconds (as Stripe offers: now, 1 hour ... 7 days). */
export const ROLL_GRACE_PERIODS = [
  { seconds: 0, label: "Now (revoke at once)" },
  { seconds: 60 * 60, label: "In 1 hour" },
  { seconds: 24 * 60 * 60, label: "In 24 hours" },
  { seconds: 3 * 24 * 60 * 60, label: "In 3 days" },
  { seconds: 7 * 24 * 60 * 60, label: "In 7 days" },
] as const;

export const MAX_GRACE_SECONDS = 7 * 24 * 60 * 60;
export const graceSecondsSchema = z.coerce.number().int().min(0).max(MAX_GRACE_SECONDS, "The old key can stay valid for at most 7 days");

export class ApiKeyNotRollableError extends Error {
  constructor() {
    super("This key is revoked or has expired; create a new key instead");
    this.name = "ApiKeyNotRollableError";
  }
}

export interface RollApiKeyOptions {
  merchantId: string;
  /** The mode the key must be of: a key of the other mode looks like an unknown one. */
  mode: Mode;
  apiKeyId: string;
  /** How long the old key keeps working; 0 revokes it at once. */
  graceSeconds: number;
  actorUserId?: string | null;
  now?: Date;
  tx?: Tx;
}

/**
 * Replaces a key with a new one under the same name. The old key keeps working until the grace
 * period ends, so the merchant can deploy the new key without downtime. The new key's full value
 * is returned once and never stored.
 */
export async function rollApiKey({ merchantId, mode, apiKeyId, graceSeconds, actorUserId = null, now = new Date(), tx }: RollApiKeyOptions) {
  const grace = graceSecondsSchema.parse(graceSeconds);
  const run = async (client: Tx) => {
    const old = await client.apiKey.findFirst({
      where: { id: apiKeyId, merchantId, mode },
      select: { id: true, name: true, prefix: true, revokedAt: true, expiresAt: true, scopes: true },
    });
    if (!old) throw new ApiKeyNotFoundError();
    if (old.revokedAt || (old.expiresAt && old.expiresAt <= now)) throw new ApiKeyNotRollableError();

    const apiKey = generateApiKey(mode);
    const record = await client.apiKey.create({
      data: { id: newId(), merchantId, name: old.name, prefix: visiblePrefix(apiKey), hash: hashApiKey(apiKey), rolledFromId: old.id, scopes: old.scopes, mode },
      select: { id: true, name: true, prefix: true, createdAt: true },
    });
    const requestedEnd = new Date(now.getTime() + grace * 1000);
    // Rolling an expiring key again never extends its life.
    const oldExpiresAt = old.expiresAt && old.expiresAt < requestedEnd ? old.expiresAt : requestedEnd;
    await client.apiKey.update({
      where: { id: old.id },
      data: grace === 0 ? { revokedAt: now } : { expiresAt: oldExpiresAt },
      select: { id: true },
    });
    await recordAuditEntry(client, {
      merchantId,
      userId: actorUserId,
      action: "api_key.rolled",
      target: old.id,
      details: {
        name: old.name,
        oldPrefix: old.prefix,
        newKeyId: record.id,
        newPrefix: record.prefix,
        oldKeyValidUntil: grace === 0 ? now.toISOString() : oldExpiresAt.toISOString(),
      },
    });
    return { apiKey, record, oldKeyValidUntil: grace === 0 ? now : oldExpiresAt };
  };
  return tx ? run(tx) : db().$transaction(run);
}
