// Where a process spent its CPU time, from its --cpu-prof profile(s): self time by package and by
// function (scripts/bench/merchant-api.ts, scripts/bench/inngest.ts). Not a benchmark itself: it
// lives in a folder of its own because scripts/bench.ts runs every scripts/bench/*.ts file.
import { readFileSync, readdirSync } from "node:fs";
import path from "node:path";

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  hitCount?: number;
}

export interface ProfileSummary {
  files: string[];
  samples: number;
  byCategoryPercent: Record<string, number>;
  topFunctionsSelfPercent: string[];
}

/** `distDir` is the Next.js build the profiled process ran (its chunks are "our code + bundled libraries"); `filter` picks the files. */
export function summarizeProfiles(dir: string, distDir: string, filter: (file: string) => boolean = () => true, top = 30): ProfileSummary {
  const files = readdirSync(dir).filter((file) => file.endsWith(".cpuprofile") && filter(file));
  const byCategory = new Map<string, number>();
  const byFunction = new Map<string, number>();
  let total = 0;
  const build = path.basename(distDir);
  for (const file of files) {
    const profile = JSON.parse(readFileSync(path.join(dir, file), "utf8")) as { nodes: ProfileNode[] };
    for (const node of profile.nodes) {
      const hits = node.hitCount ?? 0;
      if (!hits) continue;
      total += hits;
      const { url, functionName, lineNumber } = node.callFrame;
      const category = !url
        ? functionName.startsWith("(")
          ? functionName
          : "native/builtin"
        : url.includes("node_modules/.prisma") ||
            url.includes("@prisma") ||
            url.includes("generated/prisma") ||
            url.includes("query_compiler")
          ? "prisma"
          : url.includes("node_modules/pg")
            ? "pg"
            : url.includes("node_modules/next")
              ? "next (node_modules)"
              : url.includes(`${build}/server/chunks`)
                ? "app bundle (.next chunks: our code + bundled libraries)"
                : url.includes(build)
                  ? "next build (other)"
                  : url.startsWith("node:")
                    ? "node internals"
                    : url.includes("node_modules/")
                      ? `node_modules/${url.split("node_modules/").pop()?.split("/")[0]}`
                      : "other";
      byCategory.set(category, (byCategory.get(category) ?? 0) + hits);
      const name = `${functionName || "(anonymous)"} ${url.split("/").slice(-2).join("/")}:${lineNumber + 1}`;
      byFunction.set(name, (byFunction.get(name) ?? 0) + hits);
    }
  }
  const share = (hits: number) => Number(((100 * hits) / total).toFixed(1));
  return {
    files,
    samples: total,
    byCategoryPercent: Object.fromEntries([...byCategory].sort((a, b) => b[1] - a[1]).map(([name, hits]) => [name, share(hits)])),
    topFunctionsSelfPercent: [...byFunction]
      .sort((a, b) => b[1] - a[1])
      .slice(0, top)
      .map(([name, hits]) => `${share(hits)}% ${name}`),
  };
}
