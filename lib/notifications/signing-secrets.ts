// The secrets that sign a merchant's notifications (model SigningSecret). A secret is "whsec_" +
// base64 of 24 random bytes (Standard Webhooks); it is stored sealed under a key derived from the
// card-data key (lib/cards/sealed-secret.ts), bound to its merchant and row. Every secret still valid
// signs each message, newest first, so a roll (a new row, and an end time on the others) lets the
// merchant's receiver move to the new secret during the overlap (Stripe's rolling, up to 24 h).
// Each mode has its own secrets (security review 4, M1; Stripe's test and live secrets): a test key
// can make test notifications say anything, and they must never verify with the live secret.
import { randomBytes } from "node:crypto";
import { db, type Tx } from "../db";
import type { Mode } from "../mode";
import { isSealedFor, openSecret, sealSecret, sealedKeyId, type SealPurpose } from "../cards/sealed-secret";
import { cardKeyMaterial } from "../cards/card-encryption";
import { newId } from "../ids";

const SIGNING_SECRET_SEAL: SealPurpose = { prefix: "whsec1", label: "card-payment-service/notification-signing-secret/v1" };

/** The longest overlap a roll may give the old secret. */
export const MAX_SIGNING_SECRET_OVERLAP_SECONDS = 24 * 60 * 60;

type Client = Tx | ReturnType<typeof db>;

export function newSigningSecret(): string {
  return `whsec_${randomBytes(24).toString("base64")}`;
}

const bindingOf = (row: { id: string; merchantId: string }) => `${row.merchantId}:${row.id}`;

/** Stores a new secret for the merchant and mode, valid from now; returns it in clear (shown once by callers that need it). */
export async function createSigningSecret({
  merchantId,
  mode,
  endpointId = null,
  tx,
  now = new Date(),
}: {
  merchantId: string;
  /** The mode whose notifications it signs (an endpoint's: the endpoint's mode). */
  mode: Mode;
  /** A webhook endpoint's secret; null: the merchant's own. */
  endpointId?: string | null;
  tx?: Tx;
  now?: Date;
}): Promise<string> {
  const secret = newSigningSecret();
  const id = newId();
  await (tx ?? db()).signingSecret.create({
    data: { id, merchantId, mode, endpointId, sealed: sealSecret(SIGNING_SECRET_SEAL, secret, bindingOf({ id, merchantId })), createdAt: now },
    select: { id: true },
  });
  return secret;
}

/**
 * The secret of a row in clear. A row from before sealing (the migration copied "whsec_..." as it
 * was) is sealed now; the update is conditional on the value read, so concurrent readers agree.
 */
export async function openSigningSecret(row: { id: string; merchantId: string; sealed: string }, client: Client = db()): Promise<string> {
  if (isSealedFor(SIGNING_SECRET_SEAL, row.sealed)) return openSecret(SIGNING_SECRET_SEAL, row.sealed, bindingOf(row));
  await client.signingSecret.updateMany({
    where: { id: row.id, sealed: row.sealed },
    data: { sealed: sealSecret(SIGNING_SECRET_SEAL, row.sealed, bindingOf(row)) },
  });
  return row.sealed;
}

const stillValid = (now: Date) => ({ OR: [{ expiresAt: null }, { expiresAt: { gt: now } }] });

/** The merchant's valid secrets of a mode in clear, newest first (the first is the one a reveal shows). */
export async function activeSigningSecrets({
  merchantId,
  mode,
  endpointId = null,
  now = new Date(),
  client = db(),
}: {
  merchantId: string;
  mode: Mode;
  /** A webhook endpoint's secrets; null: the merchant's own. */
  endpointId?: string | null;
  now?: Date;
  client?: Client;
}): Promise<Array<{ secret: string; createdAt: Date; expiresAt: Date | null }>> {
  const rows = await client.signingSecret.findMany({
    where: { merchantId, mode, endpointId, ...stillValid(now) },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    select: { id: true, merchantId: true, sealed: true, createdAt: true, expiresAt: true },
  });
  return Promise.all(
    rows.map(async (row) => ({ secret: await openSigningSecret(row, client), createdAt: row.createdAt, expiresAt: row.expiresAt })),
  );
}

/**
 * A new secret that signs from now on; every other valid secret keeps signing until `now +
 * overlapSeconds` (or its own earlier end: a roll never extends an old secret's life).
 */
export async function rollSigningSecretRows({
  merchantId,
  mode,
  endpointId = null,
  overlapSeconds,
  tx,
  now = new Date(),
}: {
  merchantId: string;
  mode: Mode;
  /** A webhook endpoint's secrets; null: the merchant's own. */
  endpointId?: string | null;
  overlapSeconds: number;
  tx: Tx;
  now?: Date;
}) {
  if (!Number.isInteger(overlapSeconds) || overlapSeconds < 0 || overlapSeconds > MAX_SIGNING_SECRET_OVERLAP_SECONDS) {
    throw new RangeError(`the overlap must be 0 to ${MAX_SIGNING_SECRET_OVERLAP_SECONDS} seconds`);
  }
  const previousValidUntil = new Date(now.getTime() + overlapSeconds * 1000);
  // Serializes two rolls of one merchant and mode: each sees the other's new row.
  await lockSecrets(tx, merchantId, mode, endpointId);
  await tx.signingSecret.updateMany({ where: { merchantId, mode, endpointId, expiresAt: null }, data: { expiresAt: previousValidUntil } });
  await tx.signingSecret.updateMany({
    where: { merchantId, mode, endpointId, expiresAt: { gt: previousValidUntil } },
    data: { expiresAt: previousValidUntil },
  });
  const secret = await createSigningSecret({ merchantId, mode, endpointId, tx, now });
  return { secret, previousValidUntil };
}

function lockSecrets(tx: Tx, merchantId: string, mode: Mode, endpointId: string | null) {
  return tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtextextended(${`signing-secret:${merchantId}:${mode}:${endpointId ?? ""}`}, 0))`;
}

/**
 * The merchant's own valid secrets of a mode, newest first, after making one when it has none: a
 * merchant from before secrets had a mode kept its one secret for live (its receivers verify live
 * notifications with it) and gets its test secret here, at the first test notification or reveal.
 */
export async function ensureSigningSecret({ merchantId, mode, now = new Date() }: { merchantId: string; mode: Mode; now?: Date }) {
  const existing = await activeSigningSecrets({ merchantId, mode, now });
  if (existing.length > 0) return existing;
  return db().$transaction(async (tx) => {
    await lockSecrets(tx, merchantId, mode, null);
    const current = await activeSigningSecrets({ merchantId, mode, now, client: tx });
    if (current.length > 0) return current;
    const secret = await createSigningSecret({ merchantId, mode, tx, now });
    return [{ secret, createdAt: now, expiresAt: null }];
  });
}

/** Seals rows still in clear and re-seals rows under an older card key (start and `cli cards rotate-key`). */
export async function resealSigningSecrets(): Promise<{ resealed: number; remaining: number }> {
  const current = cardKeyMaterial().id;
  const rows = await db().signingSecret.findMany({ select: { id: true, merchantId: true, sealed: true } });
  let resealed = 0;
  for (const row of rows) {
    if (isSealedFor(SIGNING_SECRET_SEAL, row.sealed) && sealedKeyId(row.sealed) === current) continue;
    const secret = await openSigningSecret(row);
    const latest = await db().signingSecret.findUnique({ where: { id: row.id }, select: { sealed: true } });
    if (!latest || (isSealedFor(SIGNING_SECRET_SEAL, latest.sealed) && sealedKeyId(latest.sealed) === current)) {
      resealed++;
      continue;
    }
    const updated = await db().signingSecret.updateMany({
      where: { id: row.id, sealed: latest.sealed },
      data: { sealed: sealSecret(SIGNING_SECRET_SEAL, secret, bindingOf(row)) },
    });
    resealed += updated.count;
  }
  const remaining = (await db().signingSecret.findMany({ select: { sealed: true } })).filter(
    (row) => !isSealedFor(SIGNING_SECRET_SEAL, row.sealed) || sealedKeyId(row.sealed) !== current,
  ).length;
  return { resealed, remaining };
}
