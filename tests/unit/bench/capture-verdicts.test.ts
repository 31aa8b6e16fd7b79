// Decision 0236: capture's throughput-phase targets read against the Inngest job floor of the same
// run too. When that floor (the least a capture with its background work does, under the design
// card) misses a target, the verdict is UNREACHABLE with the floor's figure; otherwise PASS or FAIL
// as before. The figures below are the bench's own (2026-12-01 11:22 UTC, and the Xeon of 06:42).
import { describe, expect, it } from "vitest";
import { captureVerdicts, verdictText, type PhaseFigures } from "@/scripts/bench/lib/capture-verdicts";

const TARGETS = { throughputToFloor: 0.5, p99ToFloor: 2 };
const phase = (requestsPerSecond: number, p99Ms: number, faults: Partial<PhaseFigures> = {}): PhaseFigures => ({
  requestsPerSecond,
  p99Ms,
  non2xx: 0,
  errors: 0,
  ...faults,
});

describe("capture's verdicts against the Inngest job floor (decision 0236)", () => {
  it("a target the run's Inngest job floor misses too is UNREACHABLE here, naming the floor's ratio", () => {
    const verdicts = captureVerdicts({ insertFloor: phase(1418, 49), inngestJobFloor: phase(702, 117), capture: phase(443, 393) }, TARGETS);
    expect(verdicts.throughput).toEqual({ pass: false, floorMisses: "the Inngest job floor itself reads 0.495 ×" });
    expect(verdicts.p99).toEqual({ pass: false, floorMisses: "the Inngest job floor itself reads 2.388 ×" });
    expect(verdictText(verdicts.throughput)).toBe("UNREACHABLE here (the Inngest job floor itself reads 0.495 ×)");
  });

  it("a target the floor meets and capture misses is a plain FAIL (the Xeon's run of 06:42: floor 0.57 ×, p99 2.04 ×)", () => {
    const verdicts = captureVerdicts({ insertFloor: phase(900, 73), inngestJobFloor: phase(511, 149), capture: phase(335, 495) }, TARGETS);
    expect(verdicts.throughput).toEqual({ pass: false });
    expect(verdictText(verdicts.throughput)).toBe("**FAIL**");
    // The floor's p99 is 2.04 × the insert floor's: above 2 ×, so that one is out of reach there too.
    expect(verdicts.p99.floorMisses).toBe("the Inngest job floor itself reads 2.041 ×");
  });

  it("the floor's figure exactly at the target does not make it unreachable", () => {
    const verdicts = captureVerdicts({ insertFloor: phase(1000, 50), inngestJobFloor: phase(500, 100), capture: phase(400, 300) }, TARGETS);
    expect(verdicts).toEqual({ throughput: { pass: false }, p99: { pass: false } });
  });

  it("a capture phase with refusals or errors fails outright, whatever the floor read", () => {
    const verdicts = captureVerdicts({ insertFloor: phase(1418, 49), inngestJobFloor: phase(702, 117), capture: phase(800, 60, { non2xx: 3 }) }, TARGETS);
    expect(verdicts).toEqual({ throughput: { pass: false }, p99: { pass: false } });
  });

  it("a floor phase with refusals or errors shows nothing: the verdict stays FAIL", () => {
    const verdicts = captureVerdicts({ insertFloor: phase(1418, 49), inngestJobFloor: phase(300, 400, { errors: 12 }), capture: phase(443, 393) }, TARGETS);
    expect(verdicts).toEqual({ throughput: { pass: false }, p99: { pass: false } });
  });

  it("met targets PASS, whatever the floor read", () => {
    const verdicts = captureVerdicts({ insertFloor: phase(1000, 50), inngestJobFloor: phase(450, 120), capture: phase(520, 90) }, TARGETS);
    expect(verdicts).toEqual({ throughput: { pass: true }, p99: { pass: true } });
    expect(verdictText(verdicts.throughput)).toBe("PASS");
    expect(verdictText({ pass: null })).toBe("(no target)");
  });
});
