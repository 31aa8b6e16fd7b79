// Idempotency-Key on POST requests (beyond the spec, as Stripe, Adyen and Checkout.com do). A key
// is bound to what was done (docs/decisions/0105-unknown-outcomes-when-not-found-is-trusted-what.md):
// - The first request claims the key (its responseid and a lease); a repeat with other parameters
//   is refused; a repeat while the holder works waits for it, then gets its answer.
// - A refusal that did nothing (ApiError: validation, authentication, overload before any work)
//   gives the key back, so a corrected retry can use it.
// - Once work may have happened the key keeps its answer: the final answer (written in the same
//   transaction as the work where the use case binds it), or, after an unexpected failure, nothing
//   yet and a released lease: a repeat is then answered from the holder's work (the operation's
//   current state), and takes the key over only when no work of the holder exists.
// - A holder that died (its lease ran out) is resolved the same way, never answered 409 for 24 h.
import { createHash } from "node:crypto";
import canonicalize from "canonicalize";
import { db, type Tx } from "../db";
import { ApiError, invalidParameter } from "../errors";

export const IDEMPOTENCY_KEY_MAX_LENGTH = 255;
/** Records older than this are forgotten and the key can be used again. */
export const IDEMPOTENCY_RETENTION_HOURS = 24;
/** The holder's lease when the route names none: far longer than any request but a payout takes. */
export const DEFAULT_IDEMPOTENCY_LEASE_MS = 60_000;
const WAIT_FOR_FIRST_MS = 10_000;
const POLL_MS = 25;

export interface StoredAnswer {
  status: number;
  body: string;
}

/** What a stale holder's work answers now; `final` answers are stored for every later repeat. */
export interface ResolvedAnswer extends StoredAnswer {
  final: boolean;
}

/** Finds the work of a holder by its responseid: its answer now, or undefined when it did nothing. */
export type ResolveHolderWork = (holderResponseId: string) => Promise<ResolvedAnswer | undefined>;

export interface IdempotencyHold {
  merchantId: string;
  key: string;
  responseId: string;
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

export interface ClaimIdempotencyKeyOptions extends IdempotencyHold {
  fingerprint: string;
  leaseMs?: number;
  resolveHolderWork?: ResolveHolderWork;
}

/**
 * Claims the key for this request (`responseId`). Returns undefined when this request holds the
 * key (it must then complete, bind, release or keep it), or the answer to replay.
 */
export async function claimIdempotencyKey({
  merchantId,
  key,
  responseId,
  fingerprint,
  leaseMs = DEFAULT_IDEMPOTENCY_LEASE_MS,
  resolveHolderWork,
}: ClaimIdempotencyKeyOptions): Promise<StoredAnswer | undefined> {
  const claimed = await db().$executeRaw`
    INSERT INTO "IdempotencyRecord" ("merchantId", "key", "requestHash", "createdAt", "responseId", "lockedUntil")
    VALUES (${merchantId}, ${key}, ${fingerprint}, now(), ${responseId}, now() + make_interval(secs => ${leaseMs / 1000}))
    ON CONFLICT ("merchantId", "key") DO UPDATE
      SET "requestHash" = EXCLUDED."requestHash", "statusCode" = NULL, "responseBody" = NULL, "createdAt" = now(),
          "responseId" = EXCLUDED."responseId", "lockedUntil" = EXCLUDED."lockedUntil"
      WHERE "IdempotencyRecord"."createdAt" < now() - make_interval(hours => ${IDEMPOTENCY_RETENTION_HOURS})`;
  if (claimed === 1) return undefined;
  const deadline = Date.now() + WAIT_FOR_FIRST_MS;
  for (;;) {
    const [record] = await db().$queryRaw<
      { requestHash: string; statusCode: number | null; responseBody: string | null; responseId: string | null; lockExpired: boolean }[]
    >`
      SELECT "requestHash", "statusCode", "responseBody", "responseId", ("lockedUntil" IS NOT NULL AND "lockedUntil" <= now()) AS "lockExpired"
      FROM "IdempotencyRecord" WHERE "merchantId" = ${merchantId} AND "key" = ${key}`;
    // Released by a first request that was refused: try to claim it for this one.
    if (!record) return claimIdempotencyKey({ merchantId, key, responseId, fingerprint, leaseMs, resolveHolderWork });
    if (record.requestHash !== fingerprint) {
      throw invalidParameter("Idempotency-Key", "was already used with other parameters or on another endpoint");
    }
    if (record.statusCode !== null && record.responseBody !== null) return { status: record.statusCode, body: record.responseBody };
    if (record.lockExpired) {
      // The holder died or failed after work may have happened: what did it do?
      const answer = record.responseId && resolveHolderWork ? await resolveHolderWork(record.responseId) : undefined;
      if (answer) {
        if (answer.final) await completeIdempotentRequest({ merchantId, key, responseId: record.responseId!, answer });
        return { status: answer.status, body: answer.body };
      }
      // Nothing of the holder's exists: nothing was done, so this request takes the key over.
      const taken = await db().$executeRaw`
        UPDATE "IdempotencyRecord" SET "responseId" = ${responseId}, "lockedUntil" = now() + make_interval(secs => ${leaseMs / 1000})
        WHERE "merchantId" = ${merchantId} AND "key" = ${key} AND "statusCode" IS NULL
          AND "responseId" IS NOT DISTINCT FROM ${record.responseId} AND "lockedUntil" <= now()`;
      if (taken === 1) return undefined;
      continue;
    }
    if (Date.now() > deadline) {
      throw new ApiError(
        "IDEMPOTENCY_IN_PROGRESS",
        "Idempotency-Key: the first request with this key is still being processed and may already have acted; send the same request again later to get its answer",
      );
    }
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}

/** Stores the holder's final answer (a no-op when the key is no longer held by it). */
export async function completeIdempotentRequest({
  merchantId,
  key,
  responseId,
  answer,
}: IdempotencyHold & { answer: StoredAnswer }): Promise<void> {
  await db().idempotencyRecord.updateMany({
    where: { merchantId, key, responseId, statusCode: null },
    data: { statusCode: answer.status, responseBody: answer.body },
  });
}

export class IdempotencyKeyLostError extends Error {
  constructor() {
    super("the Idempotency-Key was taken over by a repeat after this request's lease ran out; its work is rolled back");
    this.name = "IdempotencyKeyLostError";
  }
}

/**
 * Stores the final answer in the caller's transaction, the one that writes the work: the key and
 * the work commit together, so no crash can leave one without the other. Throws (rolling the work
 * back) when the key is no longer this request's.
 */
export async function bindIdempotentAnswer(tx: Tx, hold: IdempotencyHold, answer: StoredAnswer): Promise<void> {
  const bound = await tx.$executeRaw`
    UPDATE "IdempotencyRecord" SET "statusCode" = ${answer.status}, "responseBody" = ${answer.body}
    WHERE "merchantId" = ${hold.merchantId} AND "key" = ${hold.key} AND "responseId" = ${hold.responseId} AND "statusCode" IS NULL`;
  if (bound !== 1) throw new IdempotencyKeyLostError();
}

/** Gives the key back after a refusal that did nothing, so a corrected retry can use it. */
export async function releaseIdempotencyKey({ merchantId, key, responseId }: IdempotencyHold): Promise<void> {
  await db().idempotencyRecord.deleteMany({ where: { merchantId, key, responseId, statusCode: null } });
}

/**
 * After an unexpected failure when work may have happened: the key stays bound, its lease ends now,
 * so a repeat is answered at once from what the work left (or takes the key over if it left nothing).
 */
export async function keepIdempotencyKeyAfterFailure({ merchantId, key, responseId }: IdempotencyHold): Promise<void> {
  await db().$executeRaw`
    UPDATE "IdempotencyRecord" SET "lockedUntil" = now()
    WHERE "merchantId" = ${merchantId} AND "key" = ${key} AND "responseId" = ${responseId} AND "statusCode" IS NULL`;
}
