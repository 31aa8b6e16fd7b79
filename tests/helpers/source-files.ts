// The repository's own source files, for the tests that read the code itself (architecture rules,
// names that must appear in one place only).
import { readdirSync, statSync } from "node:fs";
import path from "node:path";

/**
 * Every file below `dir` whose name `keep` accepts, in directory order; node_modules and the
 * generated Prisma client are not ours and are skipped.
 */
export function sourceFiles(dir: string, keep: (name: string) => boolean): string[] {
  return readdirSync(dir).flatMap((entry) => {
    const full = path.join(dir, entry);
    if (entry === "node_modules" || entry === "generated") return [];
    if (statSync(full).isDirectory()) return sourceFiles(full, keep);
    return keep(entry) ? [full] : [];
  });
}
