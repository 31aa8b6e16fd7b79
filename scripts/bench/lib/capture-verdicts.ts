// The verdicts of capture's two throughput-phase targets (issue 37: at least 0.5 × the Next.js +
// INSERT floor's requests per second, p99 at most 2 × its p99), read against the Inngest job floor
// of the same run as well (decision 0236).
//
// A capture does at least what one row of the Inngest job floor does: an INSERT in the web; the
// acquirer call, the result, the signed notification and its attempt, and one SDK call in the
// background; on the same cores. So when that floor misses a target in a run, no capture under the
// design card meets it in that run, and the verdict says UNREACHABLE with the floor's figure instead
// of a plain FAIL. A floor that left background work for after the phase answered faster than it
// could go on answering: its shortfall is then understated, never overstated, so it still counts.

/** What a throughput phase measured, as the bench reports it. */
export interface PhaseFigures {
  requestsPerSecond: number;
  p99Ms: number;
  non2xx: number;
  errors: number;
}

export interface Verdict {
  /** null: a figure with no target of its own. */
  pass: boolean | null;
  /** Set when the target was missed and the run's own floor misses it too: what the floor read. */
  floorMisses?: string;
}

export interface CaptureTargets {
  throughputToFloor: number;
  p99ToFloor: number;
}

/** Three decimals: a floor just under the target (0.496 against 0.5) must not print as the target. */
const ratio = (value: number, floor: number) => (value / floor).toFixed(3);

/** PASS, FAIL, or UNREACHABLE here (with the floor's figure) when the run's own floor misses it too. */
export function verdictText(verdict: Verdict): string {
  if (verdict.pass === null) return "(no target)";
  if (verdict.pass) return "PASS";
  return verdict.floorMisses ? `UNREACHABLE here (${verdict.floorMisses})` : "**FAIL**";
}

/**
 * Capture's throughput and p99 verdicts. A phase with refusals or errors fails outright: its figures
 * are not a capture's. The Inngest job floor counts only when it answered every request.
 */
export function captureVerdicts(
  { insertFloor, inngestJobFloor, capture }: { insertFloor: PhaseFigures; inngestJobFloor: PhaseFigures; capture: PhaseFigures },
  targets: CaptureTargets,
): { throughput: Verdict; p99: Verdict } {
  const answered = (phase: PhaseFigures) => phase.non2xx === 0 && phase.errors === 0;
  const captureAnswered = answered(capture);
  const floorCounts = captureAnswered && answered(inngestJobFloor);
  const minRequestsPerSecond = targets.throughputToFloor * insertFloor.requestsPerSecond;
  const maxP99Ms = targets.p99ToFloor * insertFloor.p99Ms;
  const verdict = (pass: boolean, floorMisses: boolean, floorRatio: string): Verdict =>
    !pass && floorCounts && floorMisses ? { pass, floorMisses: `the Inngest job floor itself reads ${floorRatio} ×` } : { pass };
  return {
    throughput: verdict(
      captureAnswered && capture.requestsPerSecond >= minRequestsPerSecond,
      inngestJobFloor.requestsPerSecond < minRequestsPerSecond,
      ratio(inngestJobFloor.requestsPerSecond, insertFloor.requestsPerSecond),
    ),
    p99: verdict(captureAnswered && capture.p99Ms <= maxP99Ms, inngestJobFloor.p99Ms > maxP99Ms, ratio(inngestJobFloor.p99Ms, insertFloor.p99Ms)),
  };
}
