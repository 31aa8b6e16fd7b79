// The house keeps its shape (docs/architecture.md): arrows run from app/ into lib/, from domains into
// kernels, never back up. Computed from the sources, the folder graph of app/, components/ and lib/
// must have no cycle (no strongly connected group of rooms, so no two rooms importing each other
// either), and no kernel may import a room that is not a kernel. A failure names the rooms and the
// files whose imports make the arrows.
// Rooms: `app`, `components`, `lib/<folder>`, each file directly in lib/ (`lib/env.ts` ...), and the
// leaf `lib/acquirers/names.ts` (the list of acquirer names, which kernels may read: it imports
// nothing). lib/generated (the Prisma client) is left out, as generated code.
import { readFileSync, statSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { sourceFiles } from "@/tests/helpers/source-files";

const ROOT = path.resolve(__dirname, "../../..");
const SOURCE = /\.(ts|tsx|mts|js|mjs)$/;
const IMPORT = /(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s+|\brequire\s*\(\s*)["']([^"']+)["']/g;

/** Files inside a folder that are rooms of their own: leaves the kernels may import. */
const LEAF_ROOMS = ["lib/acquirers/names.ts"];

/**
 * The kernels: what every domain may use, and which import nothing but other kernels. A kernel that
 * needs a domain's fact takes it as an argument (or the fact moves down into a kernel).
 */
export const KERNELS = [
  "lib/acquirers/names.ts",
  "lib/cards",
  "lib/db",
  "lib/db.ts",
  "lib/egress",
  "lib/env.ts",
  "lib/errors.ts",
  "lib/http",
  "lib/ids.ts",
  "lib/local-secrets.ts",
  "lib/mode.ts",
  "lib/observability",
  "lib/validation",
];

const sources = (dir: string) => sourceFiles(dir, (name) => SOURCE.test(name) && !name.endsWith(".d.ts"));

/** The room a repository-relative file or import target belongs to, or null when it is outside app/, lib/, components/. */
export function roomOf(relative: string): string | null {
  const file = relative.replace(/\.tsx$/, ".ts");
  if (LEAF_ROOMS.includes(file)) return file;
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
  for (const ext of [".ts", ".tsx"]) {
    try {
      if (statSync(path.join(ROOT, `${relative}${ext}`)).isFile()) return roomOf(`${relative}${ext}`);
    } catch {
      // not that file
    }
  }
  return roomOf(relative);
}

/** Arrows between rooms, each with the files whose imports make it. */
export function importGraph(): Map<string, Map<string, Set<string>>> {
  const graph = new Map<string, Map<string, Set<string>>>();
  for (const top of ["app", "lib", "components"]) {
    for (const file of sources(path.join(ROOT, top))) {
      const relative = path.relative(ROOT, file).split(path.sep).join("/");
      const from = roomOf(relative);
      if (!from) continue;
      for (const match of readFileSync(file, "utf8").matchAll(IMPORT)) {
        const to = target(file, match[1]!);
        if (!to || to === from) continue;
        if (!graph.has(from)) graph.set(from, new Map());
        const arrows = graph.get(from)!;
        if (!arrows.has(to)) arrows.set(to, new Set());
        arrows.get(to)!.add(relative);
      }
    }
  }
  return graph;
}

/** The strongly connected groups of more than one room (Tarjan): each is a cycle of imports. */
export function cycles(graph: ReadonlyMap<string, Iterable<string>>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  let next = 0;
  const visit = (room: string) => {
    index.set(room, next);
    low.set(room, next);
    next++;
    stack.push(room);
    onStack.add(room);
    for (const to of graph.get(room) ?? []) {
      if (!index.has(to)) {
        visit(to);
        low.set(room, Math.min(low.get(room)!, low.get(to)!));
      } else if (onStack.has(to)) low.set(room, Math.min(low.get(room)!, index.get(to)!));
    }
    if (low.get(room) === index.get(room)) {
      const group: string[] = [];
      let member: string;
      do {
        member = stack.pop()!;
        onStack.delete(member);
        group.push(member);
      } while (member !== room);
      if (group.length > 1) found.push(group.sort());
    }
  };
  const rooms = new Set([...graph.keys(), ...[...graph.values()].flatMap((tos) => [...tos])]);
  for (const room of rooms) if (!index.has(room)) visit(room);
  return found;
}

const roomsOnly = (graph: Map<string, Map<string, Set<string>>>) => new Map([...graph].map(([from, arrows]) => [from, [...arrows.keys()]]));

function describeArrow(graph: Map<string, Map<string, Set<string>>>, from: string, to: string): string {
  return `${from} → ${to} (${[...(graph.get(from)?.get(to) ?? [])].sort().join(", ")})`;
}

describe("the folder graph of app/, components/ and lib/", () => {
  const graph = importGraph();

  it("has no cycle: no group of rooms reaches itself through imports", () => {
    const found = cycles(roomsOnly(graph));
    const message = found
      .map((group) => {
        const inside = group.flatMap((from) => group.filter((to) => graph.get(from)?.has(to)).map((to) => `  ${describeArrow(graph, from, to)}`));
        return `a cycle through ${group.join(", ")}; its arrows:\n${inside.join("\n")}`;
      })
      .join("\n\n");
    expect(found, message).toEqual([]);
  });

  it("has no two rooms importing each other", () => {
    const pairs = [...graph].flatMap(([from, arrows]) =>
      [...arrows.keys()].filter((to) => from < to && graph.get(to)?.has(from)).map((to) => `${describeArrow(graph, from, to)} and back: ${describeArrow(graph, to, from)}`),
    );
    expect(pairs, pairs.join("\n")).toEqual([]);
  });

  it("has no arrow from a kernel up into a domain", () => {
    const upward = KERNELS.flatMap((kernel) =>
      [...(graph.get(kernel)?.keys() ?? [])].filter((to) => !KERNELS.includes(to)).map((to) => describeArrow(graph, kernel, to)),
    );
    expect(upward, `kernels import only kernels:\n${upward.join("\n")}`).toEqual([]);
  });

  it("knows every kernel it names, so that a renamed kernel is not silently unguarded", () => {
    const rooms = new Set([...graph.keys(), ...[...graph.values()].flatMap((arrows) => [...arrows.keys()])]);
    expect(KERNELS.filter((kernel) => !rooms.has(kernel))).toEqual([]);
  });
});

describe("the graph's own machinery", () => {
  it("finds an arrow from an @/ import and from a relative import, and none for a package", () => {
    expect(roomOf("lib/payments/request-follow-up.ts")).toBe("lib/payments");
    expect(roomOf("lib/env.ts")).toBe("lib/env.ts");
    expect(roomOf("lib/acquirers/names.ts")).toBe("lib/acquirers/names.ts");
    expect(roomOf("app/api/health/route.ts")).toBe("app");
    expect(roomOf("lib/generated/prisma/client.ts")).toBeNull();
    const graph = importGraph();
    // lib/payments uses the database kernel, and app reaches the merchant-API wrapper.
    expect(graph.get("lib/payments")?.has("lib/db.ts") || graph.get("lib/payments")?.has("lib/db")).toBe(true);
    expect(graph.get("app")?.has("lib/api")).toBe(true);
  });

  it("finds a cycle of two, a cycle of three inside a larger graph, and none in a chain", () => {
    expect(cycles(new Map([["a", ["b"]], ["b", ["a"]]]))).toEqual([["a", "b"]]);
    expect(
      cycles(
        new Map([
          ["app", ["lib/x"]],
          ["lib/x", ["lib/y"]],
          ["lib/y", ["lib/z", "lib/env.ts"]],
          ["lib/z", ["lib/x"]],
        ]),
      ),
    ).toEqual([["lib/x", "lib/y", "lib/z"]]);
    expect(cycles(new Map([["app", ["lib/x"]], ["lib/x", ["lib/env.ts"]]]))).toEqual([]);
  });
});
