// Starts the acquirer sandboxes and the 3-D Secure sandbox on 127.0.0.1 and points test mode's
// connectors (and 3DS server) at them: live mode never reaches them (lib/processors/registry.ts). The
// service does this for every processor without a test endpoint; tests and `npm run sandbox` start
// them explicitly.
import { createBamboraSandbox } from "./bambora";
import { createClearhausSandbox } from "./clearhaus";
import { createFinaroSandbox, FINARO_SANDBOX_PATH } from "./finaro";
import { registerSandboxUrl } from "../../processors/registry";
import { sandboxAccountInput } from "../sandbox-merchant-accounts";
import type { ProcessorName } from "../../processors/types";
import { createThreeDsSandbox, THREEDS_SANDBOX_API_KEY } from "../threeds/directory-server";
import { registerThreeDsSandboxHandler, registerThreeDsSandboxUrl } from "../../threeds/ds-client";
import { withAcquirerFaults } from "./faults";
import type { SandboxLedger } from "./ledger";
import { DEFAULT_HANG_MS } from "./scheme-data";
import { startSandboxServer, type FetchHandler, type RunningSandbox } from "./serve";

/**
 * Registers a running sandbox's address with the connectors' registry (configuration), and the
 * sandbox's first test account as the built-in test account merchants without one of their own
 * get in test mode (lib/processors/accounts/add-built-in-sandbox-accounts.ts). Each merchant's
 * acquirer account carries its own credentials (sandbox-accounts.ts lists the ones the sandboxes know).
 */
function registerSandboxWithRegistry(name: ProcessorName, url: string): void {
  registerSandboxUrl(name, url, {
    ...(name === "finaro" ? { path: FINARO_SANDBOX_PATH } : {}),
    builtInAccount: sandboxAccountInput(name, 0),
  });
}

export interface StartSandboxesOptions {
  /** Which acquirer sandboxes to start (default all three). */
  processors?: readonly ProcessorName[];
  threeDs?: boolean;
  /** Fixed ports (0 or absent: any free port). */
  ports?: Partial<Record<ProcessorName | "threeds", number>>;
  /** How long the "does not answer in time" card holds a request. */
  hangMs?: number;
  /** Register the URLs with the connectors' registry (default true). */
  register?: boolean;
  /**
   * Where the cardholder's browser reaches the 3-D Secure sandbox's challenge page, when not at the
   * sandbox's own 127.0.0.1 address (the service serves it under /sandbox/threeds).
   */
  threeDsPublicUrl?: string;
}

export interface RunningSandboxes {
  urls: Partial<Record<ProcessorName | "threeds", string>>;
  /** The acquirer sandboxes' state, for tests that check what reached which acquirer. */
  ledgers: Partial<Record<ProcessorName, SandboxLedger>>;
  close(): Promise<void>;
}

function sandboxFor(name: ProcessorName, hangMs: number | undefined): { handler: FetchHandler; ledger: SandboxLedger } {
  switch (name) {
    case "finaro":
      return createFinaroSandbox({ hangMs });
    case "clearhaus":
      return createClearhausSandbox({ hangMs });
    case "bambora":
      return createBamboraSandbox({ hangMs });
  }
}

export async function startSandboxes({
  processors = ["finaro", "clearhaus", "bambora"],
  threeDs = true,
  ports = {},
  hangMs,
  register = true,
  threeDsPublicUrl,
}: StartSandboxesOptions = {}): Promise<RunningSandboxes> {
  const running: { name: ProcessorName | "threeds"; server: RunningSandbox }[] = [];
  const ledgers: Partial<Record<ProcessorName, SandboxLedger>> = {};
  try {
    for (const name of processors) {
      const sandbox = sandboxFor(name, hangMs);
      ledgers[name] = sandbox.ledger;
      const handler = withAcquirerFaults(name, sandbox.handler, hangMs ?? DEFAULT_HANG_MS);
      const server = await startSandboxServer({ name, handler, port: ports[name] });
      running.push({ name, server });
      if (register) registerSandboxWithRegistry(name, server.url);
    }
    if (threeDs) {
      const sandbox = createThreeDsSandbox({ publicUrl: threeDsPublicUrl });
      const server = await startSandboxServer({ name: "threeds", handler: sandbox.handler, port: ports.threeds });
      running.push({ name: "threeds", server });
      if (register) {
        registerThreeDsSandboxUrl(server.url, THREEDS_SANDBOX_API_KEY);
        registerThreeDsSandboxHandler(sandbox.handler);
      }
    }
  } catch (error) {
    await Promise.all(running.map(({ server }) => server.close()));
    throw error;
  }
  return {
    urls: Object.fromEntries(running.map(({ name, server }) => [name, server.url])),
    ledgers,
    async close() {
      for (const { name } of running) {
        if (!register) continue;
        if (name === "threeds") {
          registerThreeDsSandboxUrl(undefined);
          registerThreeDsSandboxHandler(undefined);
        } else registerSandboxUrl(name, undefined);
      }
      await Promise.all(running.map(({ server }) => server.close()));
    },
  };
}
