// The lint rule that keeps the rooms as drawn (eslint.config.mjs, import/no-restricted-paths):
// kernels import no domain, nothing below the back office imports it, lib/inngest imports no domain,
// no domain imports lib/jobs, only the launcher imports lib/sandboxes, the simulators in
// lib/sandboxes never import the connectors in lib/acquirers (but its list of names), only
// lib/acquirers/index.ts imports an acquirer module, and a module imports only the contract, the
// plumbing and the kernels.
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
    for (const file of ["lib/routing/probe.ts", "lib/threeds/probe.ts", "lib/jobs/probe.ts", "app/api/probe/route.ts"]) {
      expect(await restrictedImports(file, source), file).toEqual([expect.stringContaining("Only the launcher")]);
    }
    expect(await restrictedImports("lib/jobs/start-background-services.ts", source)).toEqual([]);
  });

  it("refuses the connectors in the sandboxes, and the sandboxes in the connectors", async () => {
    const connectorImport = 'import { finaroSignature } from "../../acquirers/finaro/signature";\nexport const x = finaroSignature;\n';
    for (const file of ["lib/sandboxes/acquirers/probe.ts", "lib/sandboxes/threeds/probe.ts"]) {
      expect(await restrictedImports(file, connectorImport), file).toEqual(expect.arrayContaining([expect.stringContaining("never from our connectors")]));
    }
    const typeImport = 'import type { ProcessorResult } from "@/lib/acquirers/contract";\nexport type X = ProcessorResult;\n';
    expect(await restrictedImports("lib/sandboxes/acquirers/probe.ts", typeImport)).toEqual([
      expect.stringContaining("never from our connectors"),
    ]);
    const routingImport = 'import { resolveRouting } from "@/lib/routing/routing";\nexport const x = resolveRouting;\n';
    expect(await restrictedImports("lib/sandboxes/acquirers/finaro/probe.ts", routingImport)).toEqual([
      expect.stringContaining("never from our connectors"),
    ]);
    // The list of names is no connector: a sandbox may read it.
    const namesImport = 'import { ACQUIRER_NAMES } from "../../../acquirers/names";\nexport const x = ACQUIRER_NAMES;\n';
    expect(await restrictedImports("lib/sandboxes/acquirers/finaro/probe.ts", namesImport)).toEqual([]);
    const sandboxImport =
      'import { FINARO_SANDBOX_PATH } from "../../sandboxes/acquirers/finaro";\nexport const x = FINARO_SANDBOX_PATH;\n';
    expect(await restrictedImports("lib/acquirers/finaro/probe.ts", sandboxImport)).toEqual(
      expect.arrayContaining([expect.stringContaining("Only the launcher")]),
    );
    // The neutral address book both sides use is no import between them.
    const addresses = 'import { sandboxAddress } from "../../runtime/sandbox-addresses";\nexport const x = sandboxAddress;\n';
    expect(await restrictedImports("lib/sandboxes/acquirers/probe.ts", addresses)).toEqual([]);
  });

  it("lets only lib/acquirers/index.ts import an acquirer module", async () => {
    const moduleImport = 'import { createFinaroConnector } from "@/lib/acquirers/finaro/client";\nexport const x = createFinaroConnector;\n';
    for (const file of ["lib/payments/probe.ts", "lib/routing/probe.ts", "app/api/probe/route.ts", "components/backoffice/probe.tsx", "lib/acquirers/registry.ts"]) {
      expect(await restrictedImports(file, moduleImport), file).toEqual([expect.stringContaining("Only lib/acquirers/index.ts imports an acquirer module")]);
    }
    expect(await restrictedImports("lib/acquirers/index.ts", 'import { finaro } from "./finaro";\nexport const x = finaro;\n')).toEqual([]);
    // What index.ts registers is for everyone.
    expect(await restrictedImports("lib/payments/probe.ts", 'import { ACQUIRERS } from "@/lib/acquirers";\nexport const x = ACQUIRERS;\n')).toEqual([]);
  });

  it("keeps a module to the contract, the plumbing and the kernels: never another module, the registry or a domain", async () => {
    for (const source of [
      'import { finaroSignature } from "../finaro/signature";\nexport const x = finaroSignature;\n',
      'import { bindConnector } from "../registry";\nexport const x = bindConnector;\n',
      'import { payout } from "../../payments/payout";\nexport const x = payout;\n',
    ]) {
      expect(await restrictedImports("lib/acquirers/clearhaus/probe.ts", source), source).toEqual(
        expect.arrayContaining([expect.stringContaining("An acquirer module imports only")]),
      );
    }
    expect(
      await restrictedImports(
        "lib/acquirers/clearhaus/probe.ts",
        [
          'import { RESPONSE_CODES } from "../contract";',
          'import { send } from "../plumbing/http";',
          'import { isLuhnValid } from "../../cards/luhn";',
          'import { ACQUIRER_NAMES } from "../names";',
          'import { clearhausCredentials } from "./credentials";',
          "export const x = [RESPONSE_CODES, send, isLuhnValid, ACQUIRER_NAMES, clearhausCredentials];",
          "",
        ].join("\n"),
      ),
    ).toEqual([]);
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
