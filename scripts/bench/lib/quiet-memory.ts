// Starts scripts/bench/lib/quiet-memory-probe.mjs and asks it to touch its memory again (decision
// 0240): the machine's cost of a quiet, read beside the first seconds after one.
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import readline from "node:readline";
import { fileURLToPath } from "node:url";

export interface QuietMemoryReading {
  megabytes: number;
  pages: number;
  /** Touching every page after the quiet. */
  firstMs: number;
  /** Touching them again right after: the same pages, warm. */
  againMs: number;
}

export interface QuietMemoryProbe {
  touch(): Promise<QuietMemoryReading>;
  stop(): void;
}

const PROBE = fileURLToPath(new URL("./quiet-memory-probe.mjs", import.meta.url));

/** A process's resident set in whole MB (VmRSS of /proc/<pid>/status), at least 1. */
export function residentMegabytes(pid: number): number {
  const match = /^VmRSS:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
  if (!match) throw new Error(`no VmRSS for process ${pid}`);
  return Math.max(1, Math.round(Number(match[1]) / 1024));
}

/** Starts the probe holding `megabytes` and resolves once it has touched them (its "ready"). */
export async function startQuietMemoryProbe(megabytes: number): Promise<QuietMemoryProbe> {
  const child = spawn(process.execPath, [PROBE, String(megabytes)], { stdio: ["pipe", "pipe", "inherit"] });
  const lines = readline.createInterface({ input: child.stdout! });
  const waiting: ((line: string) => void)[] = [];
  lines.on("line", (line) => waiting.shift()?.(line));
  const exited = new Promise<never>((_, reject) => child.once("exit", (code) => reject(new Error(`the quiet-memory probe exited with ${code}`))));
  exited.catch(() => undefined);
  const next = () => Promise.race([new Promise<string>((resolve) => waiting.push(resolve)), exited]);
  const ready = await next();
  if (ready !== "ready") throw new Error(`the quiet-memory probe said ${ready}`);
  return {
    async touch() {
      const answer = next();
      child.stdin!.write("touch\n");
      return JSON.parse(await answer) as QuietMemoryReading;
    },
    stop() {
      child.stdin!.end();
      child.kill("SIGTERM");
    },
  };
}
