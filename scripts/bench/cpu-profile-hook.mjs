// Loaded with `--import` (NODE_OPTIONS) into every process of a benchmarked service
// (BENCH_CPU_PROF=<dir>, scripts/bench/hosted-fields.ts): --cpu-prof itself is not allowed in
// NODE_OPTIONS. Profiles from the start; SIGUSR2 writes <dir>/<pid>.cpuprofile and profiling stops.
import { Session } from "node:inspector";
import { writeFileSync } from "node:fs";
import path from "node:path";

const dir = process.env.CPS_CPU_PROFILE_DIR;
if (dir) {
  const session = new Session();
  session.connect();
  session.post("Profiler.enable", () => session.post("Profiler.start"));
  process.on("SIGUSR2", () => {
    session.post("Profiler.stop", (error, result) => {
      if (!error) writeFileSync(path.join(dir, `${process.pid}.cpuprofile`), JSON.stringify(result.profile));
    });
  });
}
