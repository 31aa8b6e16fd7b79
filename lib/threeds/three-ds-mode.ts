// The `set3ds` modes of initdynamic and what each one means for a payment.
//   SKIP_3DS      3-D Secure is not tried; the merchant carries the liability.
//   FORCE_3DS     the full flow, challenge included (the default).
//   FALLBACK_3DS  if the issuer wants a challenge, first authorize without 3-D Secure; if that
//                 authorization fails for want of authentication (the issuer's soft decline for
//                 SCA), run the full challenge and authorize again at the same account. A plain
//                 decline is not challenged: the issuer did not ask for authentication (decision 0192).
import { z } from "zod";
import type { ThreeDsMode } from "../generated/prisma/enums";
import type { DeclineClass } from "../acquirers/contract";

export const THREE_DS_MODES = ["SKIP_3DS", "FORCE_3DS", "FALLBACK_3DS"] as const satisfies readonly ThreeDsMode[];
export const DEFAULT_THREE_DS_MODE: ThreeDsMode = "FORCE_3DS";

/** Accepts any letter case (the spec's own example is lower case); absent or empty means FORCE_3DS. */
export const threeDsModeSchema = z
  .string()
  .trim()
  .optional()
  .transform((value) => (value ? value.toUpperCase() : DEFAULT_THREE_DS_MODE))
  .pipe(z.enum(THREE_DS_MODES, { error: "set3ds must be SKIP_3DS, FORCE_3DS or FALLBACK_3DS" }));

export function parseThreeDsMode(value: string | undefined | null): ThreeDsMode | undefined {
  const parsed = threeDsModeSchema.safeParse(value ?? undefined);
  return parsed.success ? parsed.data : undefined;
}

/** What the payment does next. */
export type ThreeDsStep =
  /** Authorize with the 3-D Secure result just obtained. */
  | { step: "authorize_with_3ds" }
  /** Authorize without 3-D Secure data. */
  | { step: "authorize_without_3ds" }
  /** Send the cardholder to the ACS challenge. */
  | { step: "challenge" }
  /** Stop: the payment fails without any authorization. */
  | { step: "fail"; reason: string };

export interface DecideThreeDsStepOptions {
  mode: ThreeDsMode;
  /**
   * Where the payment stands:
   * - "start": before any 3-D Secure (decides whether to authenticate at all);
   * - the ARes transStatus after authentication started;
   * - `declinedWithout3ds`: FALLBACK_3DS authorized without 3-D Secure and it was not approved, with
   *   the class of the last answer;
   * - the final transStatus after a challenge ("challenge_Y", "challenge_N", "challenge_cancelled").
   */
  at:
    | "start"
    | { ares: "Y" | "A" | "N" | "U" | "R" | "I" | "C" | "D" }
    | { declinedWithout3ds: DeclineClass }
    | { challenge: "Y" | "A" | "N" | "U" | "R" | "cancelled" };
}

export function decideThreeDsStep({ mode, at }: DecideThreeDsStepOptions): ThreeDsStep | { step: "authenticate" } {
  if (mode === "SKIP_3DS") return { step: "authorize_without_3ds" };
  if (at === "start") return { step: "authenticate" };
  if ("declinedWithout3ds" in at) {
    if (mode !== "FALLBACK_3DS") return { step: "fail", reason: "authorization declined" };
    return at.declinedWithout3ds === "authentication-required"
      ? { step: "challenge" }
      : { step: "fail", reason: `authorization declined without 3-D Secure (${at.declinedWithout3ds}); the issuer did not ask for authentication` };
  }
  if ("ares" in at) {
    switch (at.ares) {
      case "Y":
      case "A":
        return { step: "authorize_with_3ds" };
      case "C":
      case "D":
        return mode === "FALLBACK_3DS" ? { step: "authorize_without_3ds" } : { step: "challenge" };
      case "N":
      case "R":
        return { step: "fail", reason: `3-D Secure authentication ${at.ares === "R" ? "rejected" : "failed"} (transStatus ${at.ares})` };
      case "U":
      case "I":
        // No authentication was possible: FALLBACK lets the merchant take the liability, FORCE does not.
        return mode === "FALLBACK_3DS"
          ? { step: "authorize_without_3ds" }
          : { step: "fail", reason: `3-D Secure unavailable (transStatus ${at.ares})` };
    }
  }
  switch (at.challenge) {
    case "Y":
    case "A":
      return { step: "authorize_with_3ds" };
    case "cancelled":
      return { step: "fail", reason: "the cardholder cancelled the 3-D Secure challenge" };
    case "N":
    case "U":
    case "R":
      return { step: "fail", reason: `3-D Secure challenge failed (transStatus ${at.challenge})` };
  }
}
