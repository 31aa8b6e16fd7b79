// The lint rule that keeps the rooms as drawn (eslint.config.mjs, import/no-restricted-paths):
// kernels import no domain, nothing below the back office imports it, lib/inngest imports no domain,
// no domain imports lib/jobs, only the launcher imports lib/sandboxes, and the simulators in
// lib/sandboxes never import the connectors in lib/processors.
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
    const messages = await restrictedImports(
      "lib/inngest/probe.ts",
      'import { payout } from "../payments/payout";\nexport const x = payout;\n',
    );
    expect(messages).toEqual([expect.stringContaining("lib/inngest is infrastructure")]);
  });

  it("keeps the embedded executor package free of the app", async () => {
    for (const source of [
      'import { db } from "../../../lib/db";\nexport const x = db;\n',
      'import { db } from "@/lib/db";\nexport const x = db;\n',
      'import { config } from "@/lib/env";\nexport const x = config;\n',
    ]) {
      expect(await restrictedImports("packages/inngest-embedded/src/probe.ts", source), source).toEqual([
        expect.stringContaining("packages/inngest-embedded imports nothing of the app"),
      ]);
    }
    expect(
      await restrictedImports("packages/inngest-embedded/src/probe.ts", 'import { utc } from "./database";\nexport const x = utc;\n'),
    ).toEqual([]);
  });

  it("refuses lib/jobs in a domain", async () => {
    const messages = await restrictedImports(
      "lib/payments/probe.ts",
      'import { functions } from "@/lib/jobs";\nexport const x = functions;\n',
    );
    expect(messages).toEqual([expect.stringContaining("No domain imports lib/jobs")]);
  });

  it("refuses the sandboxes anywhere but the launcher", async () => {
    const source = 'import { startSandboxes } from "@/lib/sandboxes/acquirers/start-sandboxes";\nexport const x = startSandboxes;\n';
    for (const file of ["lib/processors/probe.ts", "lib/threeds/probe.ts", "lib/jobs/probe.ts", "app/api/probe/route.ts"]) {
      expect(await restrictedImports(file, source), file).toEqual([expect.stringContaining("Only the launcher")]);
    }
    expect(await restrictedImports("lib/jobs/start-background-services.ts", source)).toEqual([]);
  });

  it("refuses the connectors in the sandboxes, and the sandboxes in the connectors", async () => {
    const connectorImport = 'import { finaroSignature } from "../../processors/finaro/signature";\nexport const x = finaroSignature;\n';
    for (const file of ["lib/sandboxes/acquirers/probe.ts", "lib/sandboxes/threeds/probe.ts"]) {
      expect(await restrictedImports(file, connectorImport), file).toEqual([expect.stringContaining("never from our connectors")]);
    }
    const typeImport = 'import type { ProcessorName } from "@/lib/processors/types";\nexport type X = ProcessorName;\n';
    expect(await restrictedImports("lib/sandboxes/acquirers/probe.ts", typeImport)).toEqual([
      expect.stringContaining("never from our connectors"),
    ]);
    const sandboxImport =
      'import { FINARO_SANDBOX_PATH } from "../../sandboxes/acquirers/finaro";\nexport const x = FINARO_SANDBOX_PATH;\n';
    expect(await restrictedImports("lib/processors/finaro/probe.ts", sandboxImport)).toEqual([
      expect.stringContaining("Only the launcher"),
    ]);
    // The neutral address book both sides use is no import between them.
    const addresses = 'import { sandboxAddress } from "../../runtime/sandbox-addresses";\nexport const x = sandboxAddress;\n';
    expect(await restrictedImports("lib/sandboxes/acquirers/probe.ts", addresses)).toEqual([]);
  });

  it("refuses a domain in a kernel, and lets kernels use each other", async () => {
    const domainImport = 'import { payout } from "@/lib/payments/payout";\nexport const x = payout;\n';
    for (const file of ["lib/cards/probe.ts", "lib/observability/probe.ts", "lib/db/probe.ts", "lib/validation/probe.ts", "lib/env.ts"]) {
      expect(await restrictedImports(file, domainImport), file).toEqual([expect.stringContaining("A kernel")]);
    }
    const authImport = 'import { KNOWN_ADDRESS_MS } from "../auth/sign-in-rate-limit";\nexport const x = KNOWN_ADDRESS_MS;\n';
    expect(await restrictedImports("lib/observability/probe.ts", authImport)).toEqual([expect.stringContaining("A kernel")]);
    expect(
      await restrictedImports("lib/cards/probe.ts", 'import { db } from "../db";\nimport { config } from "../env";\nexport const x = [db, config];\n'),
    ).toEqual([]);
  });

  it("refuses the back office below it, and lets its pages and forms use it", async () => {
    const source = 'import { recordAudit } from "@/lib/backoffice/action-result";\nexport const x = recordAudit;\n';
    for (const file of ["lib/auth/probe.ts", "lib/payments/probe.ts", "lib/api-keys/probe.ts", "lib/notifications/probe.ts"]) {
      expect(await restrictedImports(file, source), file).toEqual([expect.stringContaining("Only app/ and components/ import lib/backoffice")]);
    }
    for (const file of ["app/backoffice/probe/page.tsx", "components/backoffice/probe.tsx", "lib/backoffice/queries/probe.ts"]) {
      expect(await restrictedImports(file, source), file).toEqual([]);
    }
  });

  it("lets jobs import domains and the infrastructure, and domains send events", async () => {
    expect(
      await restrictedImports("lib/jobs/probe.ts", 'import { payout } from "../payments/payout";\nexport const x = payout;\n'),
    ).toEqual([]);
    expect(
      await restrictedImports("lib/payments/probe.ts", 'import { sendEvent } from "../inngest/send-event";\nexport const x = sendEvent;\n'),
    ).toEqual([]);
  });
});
