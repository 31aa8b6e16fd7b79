// The 3DS Requestor's challenge preference, chosen per hosted integration (issue 25), and the
// threeDSRequestorChallengeInd it puts in the AReq (EMV 3DS 2.2, 3dsecure.io _static/areq_220.html:
// 01 No preference, 02 No challenge requested, 03 Challenge requested (3DS Requestor preference),
// 04 Challenge requested (Mandate)). The 2.2 exemption values 05-09 are not offered:
// docs/decisions/0116-challenge-preference-per-hosted-integration.md says why.
import { z } from "zod";

export const CHALLENGE_PREFERENCES = ["no_preference", "no_challenge", "challenge_requested", "challenge_mandated"] as const;
export type ChallengePreference = (typeof CHALLENGE_PREFERENCES)[number];

export const challengePreferenceSchema = z.enum(CHALLENGE_PREFERENCES, {
  error: "must be one of no_preference, no_challenge, challenge_requested, challenge_mandated",
});

const INDICATOR: Record<ChallengePreference, "01" | "02" | "03" | "04"> = {
  no_preference: "01",
  no_challenge: "02",
  challenge_requested: "03",
  challenge_mandated: "04",
};

/** Words for the back office, as EMV names the values. */
export const CHALLENGE_PREFERENCE_LABELS: Record<ChallengePreference, string> = {
  no_preference: "No preference (01)",
  no_challenge: "No challenge requested (02)",
  challenge_requested: "Challenge requested (03)",
  challenge_mandated: "Challenge mandated (04)",
};

/** The AReq's threeDSRequestorChallengeInd for a preference; a payment without hosted integration has none (01). */
export function challengeIndicatorFor(preference: ChallengePreference | null | undefined): "01" | "02" | "03" | "04" {
  return INDICATOR[preference ?? "no_preference"];
}

const INDICATOR_WORDS: Record<string, string> = {
  "01": "no preference",
  "02": "no challenge requested",
  "03": "challenge requested",
  "04": "challenge mandated",
};

/** A stored threeDSRequestorChallengeInd in words, for the back office and the operation log. */
export function describeChallengeIndicator(indicator: string | null | undefined): string | null {
  if (!indicator) return null;
  return `${INDICATOR_WORDS[indicator] ?? "other"} (${indicator})`;
}
