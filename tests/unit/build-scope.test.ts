// Newcomer review 4, N21: a script of the reader's own inside the checkout (the typed client's example,
// a generated client) broke `npm run build`, whose type check reads every .ts file of the tsconfig.
// scratch/ is the place for such files (git-ignored), and test-results/ holds the clients the OpenAPI
// check generates: neither is read by the type check, the build or the linter.
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import ts from "typescript";
import { afterAll, describe, expect, it } from "vitest";

const ROOT = path.resolve(import.meta.dirname, "../..");
const written = [path.join(ROOT, "scratch/build-scope-probe.ts"), path.join(ROOT, "test-results/build-scope-probe/probe.ts")];

afterAll(() => {
  for (const file of written) rmSync(file, { force: true });
  rmSync(path.join(ROOT, "test-results/build-scope-probe"), { recursive: true, force: true });
});

describe("what the type check and the build read", () => {
  it("N21: leaves out scratch/ and test-results/, and still reads the sources", () => {
    for (const file of written) {
      mkdirSync(path.dirname(file), { recursive: true });
      // What broke the build: importing a .ts path (TS5097) from a file in the checkout.
      writeFileSync(file, 'import { createPaymentClient } from "../packages/client/src/index.ts";\nexport const client = createPaymentClient;\n');
    }
    const config = ts.readConfigFile(path.join(ROOT, "tsconfig.json"), ts.sys.readFile);
    const parsed = ts.parseJsonConfigFileContent(config.config, ts.sys, ROOT);
    const files = parsed.fileNames.map((file) => path.relative(ROOT, file));
    expect(files.filter((file) => file.startsWith("scratch/") || file.startsWith("test-results/"))).toEqual([]);
    expect(files).toContain("lib/env.ts");
    expect(files).toContain(path.join("tests", "unit", "build-scope.test.ts"));
  });
});
