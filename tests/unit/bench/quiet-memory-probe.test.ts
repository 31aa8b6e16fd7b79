// The bench's quiet-memory probe (decision 0240), run as the bench runs it: a process that holds the
// memory it is given, answers each "touch" with both passes' times, and refuses a size it cannot use.
import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { residentMegabytes, startQuietMemoryProbe } from "@/scripts/bench/lib/quiet-memory";

const PROBE = fileURLToPath(new URL("../../../scripts/bench/lib/quiet-memory-probe.mjs", import.meta.url));

describe("the quiet-memory probe", () => {
  it("touches every page of the memory it holds, on each request, and says how long each pass took", async () => {
    const probe = await startQuietMemoryProbe(16);
    try {
      for (let request = 0; request < 2; request += 1) {
        const reading = await probe.touch();
        expect(reading).toMatchObject({ megabytes: 16, pages: 4096 });
        expect(reading.firstMs).toBeGreaterThan(0);
        expect(reading.againMs).toBeGreaterThan(0);
      }
    } finally {
      probe.stop();
    }
  });

  it("refuses a size that is not a whole number of MB from 1 to 4096, with its usage line", async () => {
    for (const size of ["0", "1.5", "lots", "5000"]) {
      const failure = await promisify(execFile)(process.execPath, [PROBE, size]).then(
        () => undefined,
        (error: { code: number; stderr: string }) => error,
      );
      expect(failure?.code).toBe(2);
      expect(failure?.stderr).toContain("usage: node quiet-memory-probe.mjs <MB, 1 to 4096>");
    }
  });

  it("reads a process's resident set from /proc in MB", () => {
    const megabytes = residentMegabytes(process.pid);
    expect(megabytes).toBeGreaterThan(10);
    expect(megabytes).toBeLessThan(Math.round(process.memoryUsage().rss / 1024 / 1024) + 50);
  });
});
