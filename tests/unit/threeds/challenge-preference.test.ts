// The challenge preference of a hosted integration and the threeDSRequestorChallengeInd it sends
// (lib/validation/challenge-preference.ts; values from areq_220 and areq_210).
import { describe, expect, it } from "vitest";
import {
  CHALLENGE_PREFERENCES,
  challengeIndicatorFor,
  challengePreferenceSchema,
  describeChallengeIndicator,
} from "@/lib/validation/challenge-preference";

describe("challenge preference", () => {
  it("maps each preference to its EMV value, and none to 01 no preference", () => {
    expect(CHALLENGE_PREFERENCES.map((preference) => challengeIndicatorFor(preference))).toEqual(["01", "02", "03", "04"]);
    expect(challengeIndicatorFor(null)).toBe("01");
    expect(challengeIndicatorFor(undefined)).toBe("01");
  });

  it("offers no exemption value (05-09): they claim what the service does not do", () => {
    expect(CHALLENGE_PREFERENCES).toHaveLength(4);
    expect(challengePreferenceSchema.safeParse("tra_performed").success).toBe(false);
    expect(challengePreferenceSchema.safeParse("05").success).toBe(false);
  });

  it("describes a stored indicator in words", () => {
    expect(describeChallengeIndicator("04")).toBe("challenge mandated (04)");
    expect(describeChallengeIndicator("01")).toBe("no preference (01)");
    expect(describeChallengeIndicator(null)).toBeNull();
  });
});
