// Key rotation of stored card numbers (`cli cards rotate-key`): re-encrypts every stored card that
// is not yet under the current CARD_DATA_KEY. Run it after deploying the new key as CARD_DATA_KEY
// with the old one in CARD_DATA_PREVIOUS_KEYS (docs/operations.md); once nothing is left under an
// old key, that key can leave the configuration. Each row is updated only if it still holds the
// ciphertext that was read, so a card re-stored meanwhile is never overwritten; running it again
// (or in two processes at once) is harmless.
import { db } from "../db";
import { cardKeyMaterial, decryptPan, encryptPan } from "../cards/card-encryption";

const BATCH_SIZE = 200;

export interface CardKeyRotation {
  /** The id of the current key, under which everything now is. */
  keyId: string;
  reencrypted: number;
  /** Stored cards under other keys after the run, by key id (empty when the rotation is complete). */
  remaining: Record<string, number>;
}

export async function rotateCardDataKey(options: { batchSize?: number } = {}): Promise<CardKeyRotation> {
  const keyId = cardKeyMaterial().id;
  const batchSize = options.batchSize ?? BATCH_SIZE;
  let reencrypted = 0;
  let after = "";
  for (;;) {
    const cards = await db().storedCard.findMany({
      where: { keyId: { not: keyId }, id: { gt: after } },
      select: { id: true, keyId: true, panEncrypted: true },
      orderBy: { id: "asc" },
      take: batchSize,
    });
    if (cards.length === 0) break;
    after = cards[cards.length - 1]!.id;
    for (const card of cards) {
      // Throws CardKeyUnavailableError when the old key is not configured: nothing is changed then.
      const sealed = encryptPan(decryptPan({ keyId: card.keyId, panEncrypted: card.panEncrypted }));
      const updated = await db().storedCard.updateMany({
        where: { id: card.id, keyId: card.keyId, panEncrypted: card.panEncrypted },
        data: { keyId: sealed.keyId, panEncrypted: sealed.panEncrypted },
      });
      reencrypted += updated.count;
    }
  }
  const left = await db().storedCard.groupBy({ by: ["keyId"], where: { keyId: { not: keyId } }, _count: { _all: true } });
  return { keyId, reencrypted, remaining: Object.fromEntries(left.map((row) => [row.keyId, row._count._all])) };
}
