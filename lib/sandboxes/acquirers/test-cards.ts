// The scenario test cards: a sandbox-only extension (docs/acquirers.md, "Sandbox-only extensions")
// that our own test suites and local mode turn on. With extensions on, each acquirer sandbox gives
// these cards the same behaviour (declines, time-outs, late approvals, challenges) on top of its
// acquirer's own documented test cards and rules, which always apply and win where they speak
// (Clearhaus' amount-as-status PANs, for one). The 3-D Secure sandbox reads their challenge
// behaviour. docs/integration.md, "Processors, sandboxes and 3-D Secure", lists them.
import { isLuhnValid } from "../../cards/luhn";
import { isCardExpired } from "../../cards/card-expiry";
import { schemeFromPan, securityCodeLength } from "../../cards/card-scheme";
import { ACQUIRER_NAMES, type AcquirerName } from "../../acquirers/names";

/**
 * The routing scenarios are written against the acquirers in the order of lib/acquirers/names.ts: a
 * card the first one declines and the next approves shows a fallback, whichever acquirers those are.
 */
const [FIRST, SECOND, ...LATER] = ACQUIRER_NAMES;
const and = (names: readonly string[]) => (names.length < 2 ? names.join("") : `${names.slice(0, -1).join(", ")} and ${names.at(-1)}`);

/** ISO 8583 codes the sandboxes decline with. */
export type SandboxDeclineCode = "05" | "14" | "51" | "54" | "1A" | "N7" | "R1";

export interface TestCard {
  pan: string;
  description: string;
  /** Processors that decline it, with the code; others approve. */
  declinedBy?: { processors: readonly AcquirerName[] | "all"; code: SandboxDeclineCode };
  /** The acquirer does not answer in time. */
  hangs?: boolean;
  /** These processors approve it but answer only after the caller gave up (a late approval to reconcile). */
  approvesLateAt?: readonly AcquirerName[];
  /** What the 3-D Secure directory answers for it. */
  threeDs: "frictionless" | "challenge";
  /** Declined (1A, SCA required) unless the authorization carries a fully authenticated 3-D Secure result. */
  requiresAuthentication?: boolean;
  /** Every processor approves the authorization but declines a capture of it with this code (void and refund work as usual). */
  declinesCapture?: SandboxDeclineCode;
  /** Approved for half of the amount by a sandbox whose acquirer answers partial approvals (DecideAuthorizationOptions.partialApprovals). */
  partialApproval?: boolean;
  /** The cardholder's stop order: cardholder payments are approved, every merchant-initiated one declined R1 (stop-recurring). */
  stopOrder?: boolean;
}

export const TEST_CARDS: readonly TestCard[] = [
  { pan: "4111111111111111", description: "visa, approved by every processor, frictionless 3-D Secure", threeDs: "frictionless" },
  // Clearhaus' own test PAN for Mastercard (test_card_numbers.md); 5555555555554444 is one of its
  // amount-as-status PANs, so it is not an "approved" card there.
  { pan: "2221000000000009", description: "mastercard, approved, frictionless", threeDs: "frictionless" },
  {
    pan: "378282246310005",
    description: "amex, approved (not sent to an acquirer that takes visa and mastercard only)",
    threeDs: "frictionless",
  },
  {
    pan: "4000000000000002",
    description: "declined by every processor, response code 05",
    declinedBy: { processors: "all", code: "05" },
    threeDs: "frictionless",
  },
  {
    pan: "4000000000009995",
    description: "declined, 51 (insufficient funds)",
    declinedBy: { processors: "all", code: "51" },
    threeDs: "frictionless",
  },
  {
    pan: "4000000000000069",
    description: "declined, 54 (expired card)",
    declinedBy: { processors: "all", code: "54" },
    threeDs: "frictionless",
  },
  {
    pan: "4000000000001000",
    description: `declined by ${FIRST} (05), approved by ${and([SECOND!, ...LATER])}`,
    declinedBy: { processors: [FIRST], code: "05" },
    threeDs: "frictionless",
  },
  {
    pan: "4000000000002008",
    description: `declined by ${and([FIRST, SECOND!])} (05), approved by ${and(LATER)}`,
    declinedBy: { processors: [FIRST, SECOND!], code: "05" },
    threeDs: "frictionless",
  },
  {
    // Last four 0103: frictionless Y at the strict 3DS Server too (sandbox.rst), so the second
    // authentication for the next account shows there.
    pan: "4000000000080103",
    description: `declined by ${FIRST} (05), approved by ${and([SECOND!, ...LATER])}, frictionless 3-D Secure for every account: under 3-D Secure it is authenticated again for ${SECOND}`,
    declinedBy: { processors: [FIRST], code: "05" },
    threeDs: "frictionless",
  },
  {
    // Last four 0170: a challenge that passes at the strict 3DS Server too.
    pan: "4000000000060170",
    description: `the issuer asks for a challenge at every authentication; declined by ${FIRST} (05), approved by ${and([SECOND!, ...LATER])} after a completed challenge (1A without one): under 3-D Secure a second challenge, for ${SECOND}, in the same window; under FALLBACK_3DS a step-up at ${SECOND}`,
    declinedBy: { processors: [FIRST], code: "05" },
    threeDs: "challenge",
    requiresAuthentication: true,
  },
  {
    pan: "4000000000000119",
    description: "the processor does not answer in time (the next one is tried)",
    hangs: true,
    threeDs: "frictionless",
  },
  {
    pan: "4000000000000150",
    description: `${FIRST} approves it but answers too late (the next one is tried; reconciliation voids ${FIRST}'s approval)`,
    approvesLateAt: [FIRST],
    threeDs: "frictionless",
  },
  { pan: "4000000000003220", description: "the issuer asks for a 3-D Secure challenge; approved with or without it", threeDs: "challenge" },
  {
    pan: "4000000000003006",
    description: "the issuer asks for a challenge; declined (1A) without 3-D Secure, approved after a completed challenge",
    threeDs: "challenge",
    requiresAuthentication: true,
  },
  {
    pan: "4000000000000010",
    description:
      "an acquirer that answers partial approvals approves half of the amount (a partial approval: voided and declined by us); approved in full elsewhere",
    partialApproval: true,
    threeDs: "frictionless",
  },
  {
    pan: "4000000000000341",
    description: "authorized (frictionless), but every processor declines its capture (05); a void of the authorization is approved",
    threeDs: "frictionless",
    declinesCapture: "05",
  },
  {
    pan: "4000000000000291",
    description:
      "approved for the cardholder's own payments; every merchant-initiated payment on it is declined with the cardholder's stop order (R1, in each acquirer's own code): no MIT is sent for the stored card again",
    threeDs: "frictionless",
    stopOrder: true,
  },
];

export function findTestCard(pan: string): TestCard | undefined {
  return TEST_CARDS.find((card) => card.pan === pan);
}

/** The code a sandbox declines captures of an authorization of this card with; undefined: captures follow the ledger. */
export function captureDeclineCode(pan: string): SandboxDeclineCode | undefined {
  return findTestCard(pan)?.declinesCapture;
}

export interface SandboxCardInput {
  pan: string;
  expMonth: number;
  expYear: number;
  securityCode?: string;
}

export type SandboxDecision =
  | { kind: "approve" }
  /** Approve, but answer only after the caller has given up. */
  | { kind: "approve_late" }
  /** Approve this part of the amount only. */
  | { kind: "approve_partially"; amount: number }
  | { kind: "decline"; code: SandboxDeclineCode }
  | { kind: "hang" };

export interface DecideAuthorizationOptions {
  processor: AcquirerName;
  card: SandboxCardInput;
  /** ECI sent with the authorization, when 3-D Secure ran. */
  eci?: string;
  authenticationValue?: string;
  /** Merchant-initiated: SCA does not apply. */
  merchantInitiated?: boolean;
  /** Minor units: a partial approval approves half of it. */
  amount?: number;
  /** The sandbox's acquirer answers partial approvals (the scenario card's half-amount approval applies). */
  partialApprovals?: boolean;
  now?: Date;
}

const FULLY_AUTHENTICATED_ECI = new Set(["05", "02"]);

/** What the issuer behind a sandbox answers to an authorization (or a payout) of this card. */
export function decideAuthorization({
  processor,
  card,
  eci,
  authenticationValue,
  merchantInitiated,
  amount,
  partialApprovals,
  now,
}: DecideAuthorizationOptions): SandboxDecision {
  const testCard = findTestCard(card.pan);
  if (testCard?.hangs) return { kind: "hang" };
  if (testCard?.declinedBy && (testCard.declinedBy.processors === "all" || testCard.declinedBy.processors.includes(processor))) {
    return { kind: "decline", code: testCard.declinedBy.code };
  }
  if (testCard?.stopOrder && merchantInitiated) return { kind: "decline", code: "R1" };
  const scheme = schemeFromPan(card.pan);
  if (!testCard && (!isLuhnValid(card.pan) || !scheme)) return { kind: "decline", code: "14" };
  if (isCardExpired(card, now)) return { kind: "decline", code: "54" };
  if (card.securityCode !== undefined && scheme && card.securityCode.length !== securityCodeLength(scheme))
    return { kind: "decline", code: "N7" };
  if (testCard?.requiresAuthentication && !merchantInitiated) {
    const authenticated = eci !== undefined && FULLY_AUTHENTICATED_ECI.has(eci) && Boolean(authenticationValue);
    if (!authenticated) return { kind: "decline", code: "1A" };
  }
  if (testCard?.approvesLateAt?.includes(processor)) return { kind: "approve_late" };
  if (testCard?.partialApproval && partialApprovals && amount !== undefined && amount > 1) {
    return { kind: "approve_partially", amount: Math.floor(amount / 2) };
  }
  return { kind: "approve" };
}

/**
 * A decision as a sandbox whose acquirer documents no partial approval reads it: the scenario card
 * is approved in full; a late approval is `late`, a decline keeps its code for the sandbox to answer.
 */
export function withoutPartialApproval(
  decision: SandboxDecision,
): { kind: "approve" } | { kind: "late" } | { kind: "hang" } | { kind: "decline"; code: SandboxDeclineCode } {
  switch (decision.kind) {
    case "approve":
    case "approve_partially":
      return { kind: "approve" };
    case "approve_late":
      return { kind: "late" };
    case "hang":
    case "decline":
      return decision;
  }
}
