// The secrets that sign a merchant's notifications (model SigningSecret). A secret is "whsec_" +
// base64 of 24 random bytes (Standard Webhooks); it is stored sealed under a key derived from the
// card-data key (lib/cards/sealed-secret.ts), bound to its merchant and row. Every secret still valid
// signs each message, newest first, so a roll (a new row, and an end time on the others) lets the
// merchant's receiver move to the new secret during the overlap (Stripe's rolling, up to 24 h).
import { randomBytes } from "node:crypto";
import { db, type Tx } from "../db";
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

/** Stores a new secret for the merchant, valid from now; returns it in clear (shown once by callers that need it). */
export async function createSigningSecret({
  merchantId,
  endpointId = null,
  tx,
  now = new Date(),
}: {
  merchantId: string;
  /** A webhook endpoint's secret; null: the merchant's own. */
  endpointId?: string | null;
  tx?: Tx;
  now?: Date;
}): Promise<string> {
  const secret = newSigningSecret();
  const id = newId();
  await (tx ?? db()).signingSecret.create({
    data: { id, merchantId, endpointId, sealed: sealSecret(SIGNING_SECRET_SEAL, secret, bindingOf({ id, merchantId })), createdAt: now },
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

/** The merchant's valid secrets in clear, newest first (the first is the one a reveal shows). */
export async function activeSigningSecrets({
  merchantId,
  endpointId = null,
  now = new Date(),
  client = db(),
}: {
  merchantId: string;
  /** A webhook endpoint's secrets; null: the merchant's own. */
  endpointId?: string | null;
  now?: Date;
  client?: Client;
}): Promise<Array<{ secret: string; createdAt: Date; expiresAt: Date | null }>> {
  const rows = await client.signingSecret.findMany({
    where: { merchantId, endpointId, ...stillValid(now) },
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
  endpointId = null,
  overlapSeconds,
  tx,
  now = new Date(),
}: {
  merchantId: string;
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
  // Serializes two rolls of one merchant: each sees the other's new row.
  await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtextextended(${`signing-secret:${merchantId}:${endpointId ?? ""}`}, 0))`;
  await tx.signingSecret.updateMany({ where: { merchantId, endpointId, expiresAt: null }, data: { expiresAt: previousValidUntil } });
  await tx.signingSecret.updateMany({
    where: { merchantId, endpointId, expiresAt: { gt: previousValidUntil } },
    data: { expiresAt: previousValidUntil },
  });
  const secret = await createSigningSecret({ merchantId, endpointId, tx, now });
  return { secret, previousValidUntil };
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
