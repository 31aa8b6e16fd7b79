// The only registration point of the acquirer modules (./<name>/index.ts): a fourth acquirer is its
// folder, its line in ./names.ts and its line here. Everything the gateway lists per acquirer is
// derived from this table: the connectors' registry (./registry.ts), the credential schemas and form
// fields (./credentials.ts), the capabilities (./capabilities.ts), the environment variables
// (./environment.ts, lib/env.ts), a new merchant's routing, the published test cards.
import type { AcquirerModule } from "./contract";
import { ACQUIRER_NAMES, type AcquirerName } from "./names";
import { bambora } from "./bambora";
import { clearhaus } from "./clearhaus";
import { finaro } from "./finaro";

/** Each module by its name (tests/unit/acquirers/names.test.ts holds each key equal to its module's name). */
export const ACQUIRERS = { finaro, clearhaus, bambora } satisfies Record<AcquirerName, AcquirerModule>;

/** The module of `name`. */
export function acquirerModule(name: AcquirerName): AcquirerModule {
  return ACQUIRERS[name];
}

/** A new merchant's processor orders: rule 1 (primary) by the modules' routing rank, rule 2 (secondary) the reverse. */
export const DEFAULT_ROUTING: { readonly 1: readonly AcquirerName[]; readonly 2: readonly AcquirerName[] } = (() => {
  const primary = [...ACQUIRER_NAMES].sort((a, b) => ACQUIRERS[a].routingRank - ACQUIRERS[b].routingRank);
  return { 1: primary, 2: [...primary].reverse() };
})();

/** Every acquirer's published test cards (lib/cards/test-card-numbers.ts adds the industry's own). */
export const ACQUIRER_TEST_CARDS: readonly string[] = ACQUIRER_NAMES.flatMap((name) => ACQUIRERS[name].testCards);
