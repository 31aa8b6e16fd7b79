// The lint rule that keeps the rooms as drawn (eslint.config.mjs, import/no-restricted-paths):
// lib/inngest imports no domain, no domain imports lib/jobs, only the launcher imports lib/sandboxes.
// Each case lints a one-line file placed in a room, through the project's own configuration.
import path from "node:path";
import { ESLint } from "eslint";
import { beforeAll, describe, expect, it } from "vitest";

const ROOT = path.resolve(import.meta.dirname, "../../..");
let eslint: ESLint;
beforeAll(() => {
  eslint = new ESLint({ cwd: ROOT });
});

async function restrictedImports(file: string, source: string): Promise<string[]> {
  const [result] = await eslint.lintText(source, { filePath: path.join(ROOT, file) });
  return result!.messages.filter((message) => message.ruleId === "import/no-restricted-paths").map((message) => message.message);
}

describe("import rule between rooms", { timeout: 60_000 }, () => {
  it("refuses a domain import in lib/inngest", async () => {
    const messages = await restrictedImports("lib/inngest/probe.ts", 'import { payout } from "../payments/payout";\nexport const x = payout;\n');
    expect(messages).toEqual([expect.stringContaining("lib/inngest is infrastructure")]);
  });

  it("refuses lib/jobs in a domain", async () => {
    const messages = await restrictedImports("lib/payments/probe.ts", 'import { functions } from "@/lib/jobs";\nexport const x = functions;\n');
    expect(messages).toEqual([expect.stringContaining("No domain imports lib/jobs")]);
  });

  it("refuses the sandboxes anywhere but the launcher", async () => {
    const source = 'import { startSandboxes } from "@/lib/sandboxes/acquirers/start-sandboxes";\nexport const x = startSandboxes;\n';
    for (const file of ["lib/processors/probe.ts", "lib/threeds/probe.ts", "lib/jobs/probe.ts", "app/api/probe/route.ts"]) {
      expect(await restrictedImports(file, source), file).toEqual([expect.stringContaining("Only the launcher")]);
    }
    expect(await restrictedImports("lib/jobs/start-background-services.ts", source)).toEqual([]);
  });

  it("lets jobs import domains and the infrastructure, and domains send events", async () => {
    expect(await restrictedImports("lib/jobs/probe.ts", 'import { payout } from "../payments/payout";\nexport const x = payout;\n')).toEqual([]);
    expect(
      await restrictedImports("lib/payments/probe.ts", 'import { sendEvent } from "../inngest/send-event";\nexport const x = sendEvent;\n'),
    ).toEqual([]);
  });
});
