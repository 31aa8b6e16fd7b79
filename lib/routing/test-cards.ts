// Test mode and live mode keep their cards apart (docs/decisions/README.md, "Test mode and live
// mode"): live mode never takes a published test card (a live payment with one is declined before any
// acquirer or directory server is asked; a live payout is refused), and test mode takes nothing else.
// The one place that says which cards are published for testing: the industry's and the 3DS
// Server's (lib/cards/test-card-numbers.ts) and every acquirer's own (its module's `testCards`).
import { ACQUIRER_TEST_CARDS } from "../acquirers";
import type { CardDetails } from "../cards/card-details";
import { isTestCard, isTestCardNumber } from "../cards/test-card-numbers";
import type { Mode } from "../mode";

const ACQUIRERS_PUBLISHED: ReadonlySet<string> = new Set(ACQUIRER_TEST_CARDS);

/** A live payment or payout with a published test card number: refused before anything is sent. */
export function isTestCardInLive(mode: Mode, card: CardDetails): boolean {
  return mode === "live" && isTestCard(card, ACQUIRERS_PUBLISHED);
}

/** A test-mode payment with a card number that is not published for testing (digits only, as the fields collect it). */
export function isRealCardInTest(mode: Mode, pan: string): boolean {
  return mode === "test" && !isTestCardNumber(pan, ACQUIRERS_PUBLISHED);
}
