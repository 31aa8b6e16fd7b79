// Memory of a server process, for tests that prove an attack does not grow it: the pid that listens
// on a port (the Next server, not the launcher around it) and its resident set size from /proc.
import { readFileSync, readdirSync, readlinkSync } from "node:fs";

/** The inode of the socket listening on 127.0.0.1/::/0.0.0.0 `port`, from /proc/net/tcp{,6}. */
function listeningInodes(port: number): Set<string> {
  const inodes = new Set<string>();
  const hexPort = port.toString(16).toUpperCase().padStart(4, "0");
  for (const file of ["/proc/net/tcp", "/proc/net/tcp6"]) {
    let text = "";
    try {
      text = readFileSync(file, "utf8");
    } catch {
      continue;
    }
    for (const line of text.split("\n").slice(1)) {
      const fields = line.trim().split(/\s+/);
      // local_address is HEXIP:HEXPORT; state 0A is LISTEN; inode is field 9.
      if (fields[1]?.endsWith(`:${hexPort}`) && fields[3] === "0A" && fields[9]) inodes.add(fields[9]);
    }
  }
  return inodes;
}

/** The pid of the process that holds the listening socket of `port`, or undefined. */
export function pidListeningOn(port: number): number | undefined {
  const inodes = listeningInodes(port);
  if (inodes.size === 0) return undefined;
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    let fds: string[] = [];
    try {
      fds = readdirSync(`/proc/${entry}/fd`);
    } catch {
      continue;
    }
    for (const fd of fds) {
      try {
        const target = readlinkSync(`/proc/${entry}/fd/${fd}`);
        const match = /^socket:\[(\d+)\]$/.exec(target);
        if (match && inodes.has(match[1]!)) return Number(entry);
      } catch {
        // the fd closed meanwhile
      }
    }
  }
  return undefined;
}

/** Resident set size of `pid` in bytes (VmRSS). */
export function rssBytes(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  const kb = /^VmRSS:\s+(\d+)\s+kB$/m.exec(status)?.[1];
  if (!kb) throw new Error(`no VmRSS for pid ${pid}`);
  return Number(kb) * 1024;
}

/** Samples the RSS of `pid` every `intervalMs` until stop() is called; stop() returns the peak. */
export function sampleRss(pid: number, intervalMs = 25): { stop(): number } {
  let peak = rssBytes(pid);
  const timer = setInterval(() => {
    try {
      peak = Math.max(peak, rssBytes(pid));
    } catch {
      // the process ended
    }
  }, intervalMs);
  return {
    stop() {
      clearInterval(timer);
      try {
        peak = Math.max(peak, rssBytes(pid));
      } catch {
        // the process ended
      }
      return peak;
    },
  };
}
