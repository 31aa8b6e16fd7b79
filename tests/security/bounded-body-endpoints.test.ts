// Security review 3, H1 ("docs/security.md's bounded-endpoints table becomes true") and L1 (the demo
// receiver read a chunked body to its end). Every route file under app/ that exports a method with a
// body is enumerated from the sources and must have a row in docs/security.md's table; then, against
// the real service (local mode, so the demo receiver, the 3-D Secure sandbox and, with
// BENCH_FLOORS=1, the benchmark floor are there), each route gets a chunked body one cap and 16 KB
// long that pauses there for 3 s: the answer must come during the pause (a 4xx where the route reads
// a body). A route that read
// the whole body first would answer only after the pause.
import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { upload } from "@/tests/helpers/attack-requests";
import { startService, stopServiceAndRemoveData, testDataDir, type ServiceProcess } from "@/tests/helpers/service-process";

const ROOT = path.resolve(import.meta.dirname, "../..");
const BODY_METHODS = ["POST", "PUT", "PATCH", "DELETE"] as const;
const KB = 1024;
/** Well formed (t=<seconds now>&s=<64 hex>), but not made with the signing key. */
const forgedInngestSignature = () => `t=${Math.floor(Date.now() / 1000)}&s=${"ab".repeat(32)}`;

interface TableRow {
  file: string;
  methods: string[];
  capBytes: number | null;
}

/** Every app/**\/route.ts and the body methods it exports (read from its export statements). */
function routesWithBodies(): Map<string, string[]> {
  const routes = new Map<string, string[]>();
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir)) {
      const full = path.join(dir, entry);
      if (statSync(full).isDirectory()) walk(full);
      else if (entry === "route.ts") {
        const source = readFileSync(full, "utf8");
        const exported = new Set<string>();
        for (const match of source.matchAll(/export\s+(?:async\s+)?(?:function|const)\s+([A-Z]+)\b/g)) exported.add(match[1]!);
        for (const match of source.matchAll(/export\s+const\s*\{([^}]*)\}/g))
          for (const name of match[1]!.split(",")) exported.add(name.trim());
        for (const match of source.matchAll(/export\s*\{([^}]*)\}/g)) {
          for (const part of match[1]!.split(","))
            exported.add(
              part
                .split(/\s+as\s+/)
                .pop()!
                .trim(),
            );
        }
        const methods = BODY_METHODS.filter((method) => exported.has(method));
        if (methods.length) routes.set(path.relative(ROOT, full), methods);
      }
    }
  };
  walk(path.join(ROOT, "app"));
  return routes;
}

function documentedTable(): TableRow[] {
  const doc = readFileSync(path.join(ROOT, "docs/security.md"), "utf8");
  const table = /<!-- table:bounded-endpoints -->([\s\S]*?)<!-- \/table:bounded-endpoints -->/.exec(doc)?.[1] ?? "";
  const rows: TableRow[] = [];
  for (const line of table.split("\n")) {
    const cells = line.split("|").map((cell) => cell.trim());
    const file = /^`(app\/[^`]+)`$/.exec(cells[1] ?? "")?.[1];
    if (!file) continue;
    const cap = /^(\d+) (KB|MB)$/.exec(cells[3] ?? "");
    rows.push({
      file,
      methods: (cells[2] ?? "").split(",").map((method) => method.trim()),
      capBytes: cap ? Number(cap[1]) * (cap[2] === "MB" ? 1024 * KB : KB) : null,
    });
  }
  return rows;
}

/** A concrete path for a route file: parameters filled in with well-formed values. */
function examplePath(file: string): string {
  const pattern = file.replace(/^app/, "").replace(/\/route\.ts$/, "");
  return (
    pattern
      .replace(/\/\([^)]+\)/g, "")
      .replace("[sessionid]", "0123456789abcdef0123456789abcdef")
      .replace("[paymentid]", "0123456789abcdef0123456789abcdef")
      .replace("[disputeid]", "0123456789abcdef0123456789abcdef")
      .replace("[[...floor]]", "insert")
      .replace(/\[\.\.\.[a-z]+\]/g, (segment) =>
        segment === "[...nextauth]" ? "callback/credentials" : segment === "[...path]" ? "acs/challenge" : "a/b",
      ) || "/"
  );
}

let service: ServiceProcess;
let demo: { merchantId: string; apiKey: string };
const dataDir = testDataDir("bounded");

beforeAll(async () => {
  service = await startService({ dataDir, env: { BENCH_FLOORS: "1" } });
  demo = JSON.parse(readFileSync(path.join(dataDir, "demo.json"), "utf8")) as typeof demo;
}, 600_000);

afterAll(() => stopServiceAndRemoveData(service, dataDir));

describe("H1: the bounded-endpoints table in docs/security.md is complete and true", () => {
  it("H1: every route file under app/ with a body method has a row naming those methods, and every row names a route file", () => {
    const routes = routesWithBodies();
    const rows = documentedTable();
    expect(rows.length).toBeGreaterThan(10);
    const documented = new Map(rows.map((row) => [row.file, row.methods.sort()]));
    expect(Object.fromEntries(documented)).toEqual(Object.fromEntries([...routes].map(([file, methods]) => [file, [...methods].sort()])));
  });

  it("H1, L1, L6: every documented route answers a chunked body of its cap + 16 KB before the body ends, with a 4xx", async () => {
    const results: Array<{ route: string; reads: boolean; status: number; early: boolean }> = [];
    for (const row of documentedTable()) {
      const pathname = examplePath(row.file);
      const bytes = (row.capBytes ?? 64 * KB) + 16 * KB;
      const headers: Record<string, string> = { "content-type": "application/json" };
      // Authenticated where a route would otherwise refuse before reading, so that the cap itself is tested.
      if (pathname.startsWith("/api/") && !pathname.startsWith("/api/inngest")) headers.authorization = `Basic ${demo.apiKey}`;
      if (pathname.startsWith("/api/inngest")) headers["x-inngest-signature"] = forgedInngestSignature();
      if (pathname.startsWith("/dynamic/")) headers.origin = `http://localhost:${service.port}`;
      if (pathname.includes("challenge-notify") || pathname.startsWith("/sandbox/") || pathname.startsWith("/api/auth/")) {
        headers["content-type"] = "application/x-www-form-urlencoded";
      }
      for (const method of row.methods) {
        const answer = await upload({
          port: service.port,
          path: pathname,
          method,
          bytes,
          chunked: true,
          chunkBytes: 16 * KB,
          pauseAfterBytes: bytes - 1,
          pauseMs: 3_000,
          filler: "a",
          headers,
        });
        results.push({
          route: `${method} ${pathname}`,
          reads: row.capBytes !== null,
          status: answer.status,
          early: answer.answeredBeforeEnd,
        });
      }
    }
    // A route that reads (a cap) must refuse past it; one that reads nothing may answer anything, but early.
    const late = results.filter((result) => !result.early || result.status >= 500 || (result.reads && result.status < 400));
    expect(late).toEqual([]);
  });

  // A chunked 200 KB body that pauses 3 s after 80 KB: the refusal must come during the pause.
  for (const { name, path: pathname } of [
    { name: "L1: the demo receiver refuses a chunked 200 KB body with 413 before the body ends", path: "/demo-shop/notifications" },
    { name: "L6: the benchmark floor (BENCH_FLOORS=1, local) refuses a chunked body over 64 KB with 413 before the body ends", path: "/api/bench-floor/insert" },
  ]) {
    it(name, async () => {
      const answer = await upload({
        port: service.port,
        path: pathname,
        bytes: 200 * KB,
        chunked: true,
        chunkBytes: 16 * KB,
        pauseAfterBytes: 80 * KB,
        pauseMs: 3_000,
        headers: { "content-type": "application/json" },
      });
      expect({ status: answer.status, early: answer.answeredBeforeEnd }).toEqual({ status: 413, early: true });
    });
  }
});
