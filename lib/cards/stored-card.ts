// The card vault: a card kept for later payments (an MIT, a payment on behalf, a payout to it) is a
// StoredCard row, its number encrypted under CARD_DATA_KEY (./card-encryption.ts) beside the facts the
// back office shows. The one place where a card is written to the vault and read back out of it, so
// the number is unwrapped here (to encrypt it) and otherwise only where it leaves for an acquirer or
// the 3DS Server.
import { config } from "../env";
import type { Prisma } from "../generated/prisma/client";
import { newId } from "../ids";
import type { Mode } from "../mode";
import { CardDetails } from "./card-details";
import { decryptPan, encryptPan, panFingerprint } from "./card-encryption";
import { cardFacts } from "./card-facts";

// The transaction type from the generated client itself: lib/db.ts (which logs through observability,
// which redacts through this kernel) would close a loop.
type Tx = Prisma.TransactionClient;

/** The key under which the gateway derives a PAR when no acquirer returned one. */
function parKey(): string {
  return `par-derivation:${config().secrets.apiKeySecret}`;
}

/** The PAR the gateway derives for a card (the scheme's own, from an acquirer, replaces it when there is one). */
export function derivedPar(card: CardDetails): string | undefined {
  return cardFacts({ card, parKey: parKey() }).par;
}

/** The columns of a stored card that hold its number: encrypted, with the fingerprint that finds it again. */
export function sealedCardNumber(card: CardDetails): { keyId: string; panEncrypted: string; panFingerprint: string } {
  const pan = card.revealPan();
  return { ...encryptPan(pan), panFingerprint: panFingerprint(pan) };
}

/** Keeps `card` for the merchant in `mode` (never its security code); returns the row's id and the PAR derived for it. */
export async function storeCard(tx: Tx, { merchantId, mode, card }: { merchantId: string; mode: Mode; card: CardDetails }): Promise<{ id: string; par: string | null }> {
  const facts = cardFacts({ card, parKey: parKey() });
  return tx.storedCard.create({
    data: {
      id: newId(),
      merchantId,
      mode,
      ...sealedCardNumber(card),
      bin: facts.bin,
      last4: facts.last4,
      expMonth: card.expMonth,
      expYear: card.expYear,
      scheme: facts.scheme ?? "unknown",
      funding: facts.funding ?? null,
      segment: facts.segment ?? null,
      issuer: facts.issuer ?? null,
      country: facts.country ?? null,
      par: facts.par ?? null,
    },
    select: { id: true, par: true },
  });
}

/** What of a stored card row opens it. */
/** What the merchant API and the back office may show of a stored card: its facts, never its number. */
export const STORED_CARD_FACTS_SELECT = {
  bin: true,
  last4: true,
  expMonth: true,
  expYear: true,
  scheme: true,
  funding: true,
  segment: true,
  issuer: true,
  panType: true,
  par: true,
} as const;

export const STORED_CARD_SELECT = { id: true, keyId: true, panEncrypted: true, expMonth: true, expYear: true } as const;

/** A stored card row as card data in memory (without a security code: it is never stored). */
export function openStoredCard(row: { keyId: string; panEncrypted: string; expMonth: number; expYear: number }): CardDetails {
  return new CardDetails({ pan: decryptPan({ keyId: row.keyId, panEncrypted: row.panEncrypted }), expMonth: row.expMonth, expYear: row.expYear });
}
