// Writes migration SQL offline: Prisma's schema engine (compiled to WebAssembly) diffs the
// datamodel of the last migration against the current schema. The engine insists on a reachable
// database even for a pure diff, so it gets a throwaway in-memory PGlite it never changes.
import { readFileSync, readdirSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { pathToFileURL } from "node:url";

export interface SchemaFile {
  path: string;
  content: string;
}

export function readSchemaFolder(dir: string): SchemaFile[] {
  return readdirSync(dir)
    .filter((name) => name.endsWith(".prisma"))
    .sort()
    .map((name) => ({ path: path.join(dir, name), content: readFileSync(path.join(dir, name), "utf8") }));
}

/** One file holding the whole datamodel, the form kept as the snapshot of the last migration. */
export function joinSchemaFiles(files: SchemaFile[]): string {
  return files.map((file) => `// ---- ${path.basename(file.path)}\n${file.content.trim()}\n`).join("\n");
}

/** SQL that takes a database from `from` (null: empty) to `to`; empty string when they agree. */
export async function diffSchemas(from: SchemaFile[] | null, to: SchemaFile[]): Promise<string> {
  // Imported by hand: the package's own entry instantiates the .wasm with a bundler-style import.
  const require = createRequire(import.meta.url);
  const bindingsFile = require.resolve("@prisma/schema-engine-wasm/schema_engine_bg");
  const pkgDir = path.dirname(bindingsFile);
  const bindings = await import(pathToFileURL(bindingsFile).href);
  const { instance } = await WebAssembly.instantiate(readFileSync(path.join(pkgDir, "schema_engine_bg.wasm")), {
    "./schema_engine_bg.js": bindings,
  });
  bindings.__wbg_set_wasm(instance.exports);
  (instance.exports as { __wbindgen_start?: () => void }).__wbindgen_start?.();

  const [{ PrismaPg }, { bindMigrationAwareSqlAdapterFactory }, { startEmbeddedPostgres }] = await Promise.all([
    import("@prisma/adapter-pg"),
    import("@prisma/driver-adapter-utils"),
    import("./embedded-postgres"),
  ]);
  const scratch = await startEmbeddedPostgres({ memory: true, port: 0 });
  try {
    const engine = await bindings.SchemaEngine.new(
      { datamodels: to.map((file) => [file.path, file.content]) },
      () => {},
      bindMigrationAwareSqlAdapterFactory(new PrismaPg({ connectionString: scratch.url })),
    );
    const result = await engine.diff({
      from: from ? { tag: "schemaDatamodel", files: from } : { tag: "empty" },
      to: { tag: "schemaDatamodel", files: to },
      script: true,
      exitCode: null,
      filters: { externalTables: [], externalEnums: [] },
    });
    const sql: string = result.stdout ?? "";
    return sql.includes("This is an empty migration") ? "" : sql;
  } finally {
    await scratch.stop();
  }
}
