// `npm run new:acquirer -- examplepay`, run as an engineer runs it, in a scratch copy of the sources:
// the new module and sandbox type-check together with the registry, and the conformance kit runs on
// the new module and passes. A name that is taken is refused, changing nothing. The copy is deleted.
import { execFile } from "node:child_process";
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const run = promisify(execFile);
const ROOT = path.resolve(import.meta.dirname, "../../..");
let scratch: string;

beforeAll(() => {
  scratch = mkdtempSync(path.join(os.tmpdir(), "cps-new-acquirer-"));
  for (const entry of ["lib", "prisma/schema", "scripts/new-acquirer.ts", "tests/unit/acquirers", "package.json", "tsconfig.json", "vitest.config.ts"])
    cpSync(path.join(ROOT, entry), path.join(scratch, entry), { recursive: true });
  symlinkSync(path.join(ROOT, "node_modules"), path.join(scratch, "node_modules"), "dir");
});
afterAll(() => {
  if (scratch) rmSync(scratch, { recursive: true, force: true });
});

const inScratch = (command: string, args: string[]) =>
  run(command, args, { cwd: scratch, env: { ...process.env, NODE_ENV: "test", NO_COLOR: "1", FORCE_COLOR: "0" }, maxBuffer: 16 * 1024 * 1024 }).then(
    ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
    (error: { code: number; stdout: string; stderr: string }) => ({ code: error.code, stdout: error.stdout, stderr: error.stderr }),
  );

describe("npm run new:acquirer", { timeout: 600_000 }, () => {
  it("adds a module and its sandbox that type-check with the registry and pass the conformance kit", async () => {
    const added = await inScratch("npm", ["run", "-s", "new:acquirer", "--", "examplepay", "--label", "Example Pay"]);
    expect(added.stderr).toBe("");
    expect(added.code).toBe(0);
    expect(added.stdout).toContain("new     lib/acquirers/examplepay/index.ts");
    expect(added.stdout).toContain("new     lib/sandboxes/acquirers/examplepay/sandbox.ts");
    expect(readFileSync(path.join(scratch, "lib/acquirers/names.ts"), "utf8")).toContain('  examplepay: "Example Pay",\n');
    expect(readFileSync(path.join(scratch, "lib/acquirers/index.ts"), "utf8")).toMatch(/export const ACQUIRERS = \{ [^}]*, examplepay \}/);
    expect(readFileSync(path.join(scratch, "prisma/schema/merchant.prisma"), "utf8")).toMatch(/enum Processor \{[^}]*\n {2}examplepay\n\}/);
    expect(readFileSync(path.join(scratch, "lib/acquirers/examplepay/client.ts"), "utf8")).not.toMatch(/xacquirer/i);

    // The registry, the sandboxes' list and the kit, with everything they import, type-checked.
    writeFileSync(
      path.join(scratch, "tsconfig.check.json"),
      JSON.stringify({
        extends: "./tsconfig.json",
        compilerOptions: { incremental: false },
        include: [],
        files: ["lib/acquirers/index.ts", "lib/sandboxes/acquirers/index.ts", "tests/unit/acquirers/conformance.test.ts"],
      }),
    );
    const typed = await inScratch("npx", ["tsc", "-p", "tsconfig.check.json"]);
    expect(typed.stdout + typed.stderr).toBe("");
    expect(typed.code).toBe(0);

    const kit = await inScratch("npx", ["vitest", "run", "--project", "unit", "tests/unit/acquirers/conformance.test.ts", "--reporter=verbose"]);
    expect(kit.stdout).toMatch(/acquirer module examplepay\W+reads each answer as what it is/);
    expect(kit.code, kit.stdout + kit.stderr).toBe(0);
  });

  it("refuses a name that is taken, and one that is no name, changing nothing", async () => {
    const before = readFileSync(path.join(scratch, "lib/acquirers/names.ts"), "utf8");
    const taken = await inScratch("npm", ["run", "-s", "new:acquirer", "--", "examplepay"]);
    expect(taken.code).toBe(2);
    expect(taken.stderr).toContain("examplepay is an acquirer already");
    const bad = await inScratch("npm", ["run", "-s", "new:acquirer", "--", "Example-Pay"]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain("usage: npm run new:acquirer");
    expect(readFileSync(path.join(scratch, "lib/acquirers/names.ts"), "utf8")).toBe(before);
    expect(existsSync(path.join(scratch, "lib/acquirers/example-pay"))).toBe(false);
  });
});
