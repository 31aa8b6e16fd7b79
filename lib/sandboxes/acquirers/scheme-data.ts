// What the card schemes add to an approval in every sandbox: the PAR (the same for a card whichever
// acquirer asks, as the scheme assigns it) and a network transaction id.
import { randomInt } from "node:crypto";
import { derivePar } from "../../cards/par";
import { schemeFromPan } from "../../cards/card-scheme";

/** Fixed because it stands for the schemes, which are the same for every sandbox and not secret here. */
const SANDBOX_SCHEME_PAR_KEY = "sandbox-card-schemes";

export function sandboxPar(pan: string): string | undefined {
  const scheme = schemeFromPan(pan);
  return scheme ? derivePar({ pan, scheme, key: SANDBOX_SCHEME_PAR_KEY }) : undefined;
}

export function newSchemeTransactionId(): string {
  return Array.from({ length: 15 }, () => String(randomInt(10))).join("");
}

/** How long a sandbox holds the "does not answer in time" card before it gives up itself. */
export const DEFAULT_HANG_MS = 120_000;
