// Node's flags for the service's own processes: `next start` (the web) and dist/worker.js (the
// worker), as the launcher (scripts/start.ts) starts them and the benches start them to measure
// what runs (scripts/bench/). V8 refuses most of its flags in NODE_OPTIONS, so they go on the
// command line.
//
// --min-semi-space-size=16 (decision 0232): V8 starts the young generation at 1 MB, grows it as
// objects survive (32 MB under load here) and shrinks it when a process goes quiet, so the first
// seconds of load after a quiet run with a small one (the likely mechanism; what was measured is
// the effect): captures sent then waited several times longer for their notification than later
// ones. Bench, after 65 s of idle: the first three seconds' p50 up to 199 ms by default, up to 90
// with the flag; the phase's p99 352 and 185 ms against 135 and 111. About 30 MB more committed
// memory per quiet process (two semi-spaces of 16 MB).
export const SERVICE_NODE_FLAGS: readonly string[] = ["--min-semi-space-size=16"];
