// What a quiet costs on this machine, for `npm run bench -- inngest` (decision 0240): a process that
// holds as much memory as the worker, touches every page of it once, and then leaves it alone as the
// services are left alone, until the bench asks it (a line "touch" on standard input) to touch every
// page again. It answers one JSON line: how long the first pass took, and the second right after it.
// On most hosts both take a few milliseconds for a few hundred MB; on a host that makes memory a
// guest left untouched for some seconds slow to reach again (measured on a Firecracker VM with nested
// PVM, otherwise idle: 34 to 167 ms per 256 MB after 5 to 60 s, with no page fault the guest's
// kernel counts; milder while other processes keep the machine busy), the first pass shows it, and
// the services pay it too, in their own patterns, in their first seconds after a quiet.
// Usage: node quiet-memory-probe.mjs <MB>. Plain JavaScript: nothing loaded but what it measures.
import readline from "node:readline";

const PAGE = 4096;
const megabytes = Number(process.argv[2]);
if (!Number.isInteger(megabytes) || megabytes < 1 || megabytes > 4096) {
  process.stderr.write("usage: node quiet-memory-probe.mjs <MB, 1 to 4096>\n");
  process.exit(2);
}
const memory = Buffer.alloc(megabytes * 1024 * 1024, 1);

/** Reads one byte of every page; returns the time it took in ms. */
function touch() {
  const started = process.hrtime.bigint();
  let sum = 0;
  for (let offset = 0; offset < memory.length; offset += PAGE) sum += memory[offset];
  // The sum is used, so that no optimizer drops the reads.
  if (sum !== memory.length / PAGE) throw new Error("the probe's memory changed");
  return Number(process.hrtime.bigint() - started) / 1e6;
}

touch();
touch();
process.stdout.write("ready\n");
readline.createInterface({ input: process.stdin }).on("line", (line) => {
  if (line.trim() !== "touch") return;
  const firstMs = touch();
  const againMs = touch();
  process.stdout.write(`${JSON.stringify({ megabytes, pages: memory.length / PAGE, firstMs: Number(firstMs.toFixed(3)), againMs: Number(againMs.toFixed(3)) })}\n`);
});
