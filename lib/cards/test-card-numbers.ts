// The card numbers the card industry publishes for testing: live mode refuses them (a live payment
// with one is declined before any acquirer call) and test mode takes only them (the rule:
// lib/routing/test-cards.ts). Built from the references, never from our sandboxes: the numbers every
// gateway's documentation uses (Stripe's test cards, which are also the industry's common ones), the
// directory server's documented examples, and, given by the caller, each acquirer's own (its
// module's `testCards`, from docs/acquirers/references/*.md). Pure.

import type { CardDetails } from "./card-details";

/** Published test numbers, by where they are published. */
const PUBLISHED_TEST_CARDS: Record<string, readonly string[]> = {
  // The common ones, in every gateway's documentation (Stripe "Testing", Braintree, Adyen, Rapyd ...).
  industry: [
    "4111111111111111",
    "4242424242424242",
    "4012888888881881",
    "4222222222222",
    "4000056655665556",
    "5555555555554444",
    "5105105105105100",
    "5200828282828210",
    "2223003122003222",
    "378282246310005",
    "371449635398431",
    "6011111111111117",
    "6011000990139424",
    "3530111333300000",
    "3566002020360505",
    "30569309025904",
    "38520000023237",
    "4462030000000000",
  ],
  // 3dsecure.io's documented sandbox examples (threedsecureio.md, "Sandbox test cards").
  threeds: [
    "5000100411110203",
    "4000100511112003",
    "6000100611111103",
    "3000100811111072",
    "7000100911112070",
    "3000101011111071",
    "9000100111111111",
  ],
};

/**
 * Ranges published as test-only: Stripe's scenario cards are all 4000 0000 0000 xxxx (declines,
 * insufficient funds, processing errors, 3-D Secure: 4000000000000002, ...9995, ...3220); Clearhaus
 * takes a status code as the amount for PANs 420000…0000 and 555555…4444 on its test endpoint.
 */
const PUBLISHED_TEST_RANGES: readonly RegExp[] = [/^4000000000\d{6}$/, /^420000\d*0000$/, /^555555\d*4444$/];

const NUMBERS: ReadonlySet<string> = new Set(Object.values(PUBLISHED_TEST_CARDS).flat());

/** True for a published test card number (digits only, as the fields collect it), the acquirers' own `published` among them. */
export function isTestCardNumber(pan: string, published: ReadonlySet<string>): boolean {
  return NUMBERS.has(pan) || published.has(pan) || PUBLISHED_TEST_RANGES.some((range) => range.test(pan));
}

/** The same for a card in memory. */
export function isTestCard(card: CardDetails, published: ReadonlySet<string>): boolean {
  return isTestCardNumber(card.revealPan(), published);
}

/** The number shown where a test card is asked for. */
export const EXAMPLE_TEST_CARD = "4111 1111 1111 1111";
