// docs/architecture.md's import graph is the code's: the folder-to-folder imports under app/, lib/
// and components/ are computed from the sources and compared with the list between the markers
// <!-- import-graph --> and <!-- /import-graph --> in docs/architecture.md. A new arrow, or one the
// list names that the code no longer has, fails with the arrow named and the list to paste.
// Rooms: `app`, `components`, `lib/<folder>` and each file directly in lib/ (`lib/env.ts` ...);
// lib/generated (the Prisma client) is left out, as generated code.
import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = path.resolve(__dirname, "../../..");
const SOURCE = /\.(ts|tsx|mts|js|mjs)$/;
const IMPORT = /(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s+|\brequire\s*\(\s*)["']([^"']+)["']/g;

function sources(dir: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(dir)) {
    const full = path.join(dir, entry);
    if (entry === "node_modules" || entry === "generated") continue;
    if (statSync(full).isDirectory()) out.push(...sources(full));
    else if (SOURCE.test(entry) && !entry.endsWith(".d.ts")) out.push(full);
  }
  return out;
}

/** The room a repository-relative path belongs to, or null when it is outside app/, lib/, components/. */
export function roomOf(relative: string): string | null {
  const parts = relative.split("/");
  if (parts[0] === "app" || parts[0] === "components") return parts[0];
  if (parts[0] !== "lib" || parts.length < 2) return null;
  if (parts[1] === "generated") return null;
  if (parts.length === 2) return `lib/${parts[1]!.replace(/\.(ts|tsx)$/, ".ts")}`;
  return `lib/${parts[1]}`;
}

function target(fromFile: string, specifier: string): string | null {
  let absolute: string;
  if (specifier.startsWith("@/")) absolute = path.join(ROOT, specifier.slice(2));
  else if (specifier.startsWith(".")) absolute = path.resolve(path.dirname(fromFile), specifier);
  else return null; // a package
  const relative = path.relative(ROOT, absolute).split(path.sep).join("/");
  // `@/lib/env` names the file lib/env.ts; `@/lib/db` is lib/db.ts (a file) though lib/db/ exists too.
  const parts = relative.split("/");
  if (parts[0] === "lib" && parts.length === 2) {
    for (const ext of [".ts", ".tsx"]) {
      try {
        if (statSync(path.join(ROOT, `${relative}${ext}`)).isFile()) return `lib/${parts[1]}.ts`;
      } catch {
        // not that file
      }
    }
  }
  return roomOf(relative);
}

export function importGraph(): Map<string, Set<string>> {
  const graph = new Map<string, Set<string>>();
  for (const top of ["app", "lib", "components"]) {
    for (const file of sources(path.join(ROOT, top))) {
      const from = roomOf(path.relative(ROOT, file).split(path.sep).join("/"));
      if (!from) continue;
      for (const match of readFileSync(file, "utf8").matchAll(IMPORT)) {
        const to = target(file, match[1]!);
        if (!to || to === from) continue;
        if (!graph.has(from)) graph.set(from, new Set());
        graph.get(from)!.add(to);
      }
    }
  }
  return graph;
}

function render(graph: Map<string, Set<string>>): string {
  return [...graph.keys()]
    .sort()
    .map((from) => `- \`${from}\` → ${[...graph.get(from)!].sort().map((to) => `\`${to}\``).join(", ")}`)
    .join("\n");
}

function documented(): Map<string, Set<string>> {
  const doc = readFileSync(path.join(ROOT, "docs/architecture.md"), "utf8");
  const start = doc.indexOf("<!-- import-graph -->");
  const end = doc.indexOf("<!-- /import-graph -->");
  if (start < 0 || end < start) throw new Error("docs/architecture.md has no <!-- import-graph --> ... <!-- /import-graph --> list");
  const graph = new Map<string, Set<string>>();
  for (const line of doc.slice(start, end).split("\n")) {
    const match = /^- `([^`]+)` → (.*)$/.exec(line.trim());
    if (!match) continue;
    graph.set(match[1]!, new Set([...match[2]!.matchAll(/`([^`]+)`/g)].map((m) => m[1]!)));
  }
  return graph;
}

function arrows(graph: Map<string, Set<string>>): Set<string> {
  return new Set([...graph].flatMap(([from, tos]) => [...tos].map((to) => `${from} → ${to}`)));
}

describe("docs/architecture.md's import graph", () => {
  it("lists exactly the folder-to-folder imports of app/, lib/ and components/", () => {
    const code = importGraph();
    const inCode = arrows(code);
    const inDoc = arrows(documented());
    const added = [...inCode].filter((arrow) => !inDoc.has(arrow));
    const gone = [...inDoc].filter((arrow) => !inCode.has(arrow));
    const message = [
      added.length ? `new imports not in docs/architecture.md (is the arrow right? then add it):\n  ${added.join("\n  ")}` : "",
      gone.length ? `arrows docs/architecture.md lists that the code no longer has (remove them):\n  ${gone.join("\n  ")}` : "",
      `the list as the code has it, to paste between the import-graph markers:\n${render(code)}`,
    ]
      .filter(Boolean)
      .join("\n\n");
    expect({ added, gone }, message).toEqual({ added: [], gone: [] });
  });

  it("finds an arrow from an @/ import and from a relative import, and none for a package", () => {
    expect(roomOf("lib/payments/capture-payment.ts")).toBe("lib/payments");
    expect(roomOf("lib/env.ts")).toBe("lib/env.ts");
    expect(roomOf("app/api/health/route.ts")).toBe("app");
    expect(roomOf("lib/generated/prisma/client.ts")).toBeNull();
    const graph = importGraph();
    // lib/payments uses the database kernel, and app reaches the merchant-API wrapper.
    expect(graph.get("lib/payments")?.has("lib/db.ts") || graph.get("lib/payments")?.has("lib/db")).toBe(true);
    expect(graph.get("app")?.has("lib/api")).toBe(true);
  });
});
