// Idempotency-Key on POST requests (beyond the spec, as Stripe, Adyen and Checkout.com do): the first
// successful answer is stored and replayed for repeats; a repeat with other parameters is refused;
// a repeat that arrives while the first is still running waits for it, so the operation is never
// performed twice. Only 2xx answers are kept: a refused or failed request may be retried with the same key.
import { createHash } from "node:crypto";
import canonicalize from "canonicalize";
import { db } from "../db";
import { ApiError, invalidParameter } from "../errors";

export const IDEMPOTENCY_KEY_MAX_LENGTH = 255;
/** Records older than this are forgotten and the key can be used again. */
export const IDEMPOTENCY_RETENTION_HOURS = 24;
const WAIT_FOR_FIRST_MS = 10_000;
const POLL_MS = 25;

export interface StoredAnswer {
  status: number;
  body: string;
}

export function parseIdempotencyKey(header: string | null): string | undefined {
  if (header === null) return undefined;
  if (header.length < 1 || header.length > IDEMPOTENCY_KEY_MAX_LENGTH || !/^[\x21-\x7e]+$/.test(header)) {
    throw invalidParameter("Idempotency-Key", `must be 1 to ${IDEMPOTENCY_KEY_MAX_LENGTH} visible ASCII characters`);
  }
  return header;
}

export function requestFingerprint(method: string, path: string, input: unknown): string {
  // Canonical JSON (RFC 8785): the same parameters in another order are the same request.
  return createHash("sha256")
    .update(`${method} ${path}\n${canonicalize(input ?? null) ?? "null"}`)
    .digest("hex");
}

/**
 * Claims the key for this request. Returns undefined when this request is the first (it must then
 * call completeIdempotentRequest or releaseIdempotencyKey), or the stored answer to replay.
 */
export async function claimIdempotencyKey({
  merchantId,
  key,
  fingerprint,
}: {
  merchantId: string;
  key: string;
  fingerprint: string;
}): Promise<StoredAnswer | undefined> {
  const claimed = await db().$executeRaw`
    INSERT INTO "IdempotencyRecord" ("merchantId", "key", "requestHash", "createdAt")
    VALUES (${merchantId}, ${key}, ${fingerprint}, now())
    ON CONFLICT ("merchantId", "key") DO UPDATE
      SET "requestHash" = EXCLUDED."requestHash", "statusCode" = NULL, "responseBody" = NULL, "createdAt" = now()
      WHERE "IdempotencyRecord"."createdAt" < now() - make_interval(hours => ${IDEMPOTENCY_RETENTION_HOURS})`;
  if (claimed === 1) return undefined;
  const deadline = Date.now() + WAIT_FOR_FIRST_MS;
  for (;;) {
    const record = await db().idempotencyRecord.findUnique({
      where: { merchantId_key: { merchantId, key } },
      select: { requestHash: true, statusCode: true, responseBody: true },
    });
    // Released by a first request that failed: try to claim it for this one.
    if (!record) return claimIdempotencyKey({ merchantId, key, fingerprint });
    if (record.requestHash !== fingerprint) {
      throw invalidParameter("Idempotency-Key", "was already used with other parameters or on another endpoint");
    }
    if (record.statusCode !== null && record.responseBody !== null) return { status: record.statusCode, body: record.responseBody };
    if (Date.now() > deadline) {
      throw new ApiError("IDEMPOTENCY_IN_PROGRESS", "Idempotency-Key: a request with this key is still being processed; retry later");
    }
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}

export async function completeIdempotentRequest({
  merchantId,
  key,
  answer,
}: {
  merchantId: string;
  key: string;
  answer: StoredAnswer;
}): Promise<void> {
  await db().idempotencyRecord.update({
    where: { merchantId_key: { merchantId, key } },
    data: { statusCode: answer.status, responseBody: answer.body },
  });
}

/** Gives the key back after a refused or failed first request, so a corrected retry can use it. */
export async function releaseIdempotencyKey({ merchantId, key }: { merchantId: string; key: string }): Promise<void> {
  await db().idempotencyRecord.deleteMany({ where: { merchantId, key, statusCode: null } });
}
