// Starts the acquirer sandboxes and the 3-D Secure sandbox on 127.0.0.1 and records where they listen
// (lib/runtime/sandbox-addresses.ts), where the connectors' registry finds them for test mode's
// accounts: live mode never reaches them (lib/acquirers/registry.ts). The service does this for
// every processor without a test endpoint; tests and `npm run sandbox` start them explicitly. A
// sandbox follows its acquirer's public reference; its sandbox-only extensions (look-ups the real API
// lacks, card-update feeds, fault modes, scenario cards) are off unless asked for.
import { SANDBOXES, WORLDLINE_SANDBOX } from "./index";
import { platformSandboxKey, registerSandboxAddress, reportingSandboxKey } from "../../runtime/sandbox-addresses";
import { platformSandboxAccountInput, sandboxAccountInput } from "../sandbox-merchant-accounts";
import { ACQUIRER_NAMES, type AcquirerName } from "../../acquirers/names";
import { createThreeDsSandbox } from "../threeds/directory-server";
import { createThreeDsServerSandbox } from "../threeds/three-ds-server";
import { registerThreeDsSandboxHandler, registerThreeDsSandboxUrl } from "../../threeds/ds-client";
import { withAcquirerFaults } from "./faults";
import type { SandboxLedger } from "./ledger";
import { DEFAULT_HANG_MS } from "./scheme-data";
import { startSandboxServer, type RunningSandbox } from "./serve";

/**
 * Records a running sandbox's address as configuration for the connectors' registry, with the
 * sandbox's first test account as the built-in test account merchants without one of their own get
 * in test mode (lib/routing/accounts/add-built-in-sandbox-accounts.ts). Each merchant's acquirer
 * account carries its own credentials (<name>/accounts.ts lists the ones each sandbox knows).
 */
function registerSandbox(name: AcquirerName, url: string, extensions: boolean): void {
  registerSandboxAddress(name, {
    url,
    path: SANDBOXES[name].path,
    extensions,
    builtInAccount: sandboxAccountInput(name, 0),
  });
}

export interface StartSandboxesOptions {
  /** Which acquirer sandboxes to start (default all three). */
  processors?: readonly AcquirerName[];
  threeDs?: boolean;
  /** Fixed ports (0 or absent: any free port). */
  ports?: Partial<Record<SandboxName | "threeds", number>>;
  /** Fixed ports of the reporting API sandboxes, by acquirer (0 or absent: any free port). */
  reportingPorts?: Partial<Record<AcquirerName, number>>;
  /** How long the "does not answer in time" card holds a request. */
  hangMs?: number;
  /** Register the URLs with the connectors' registry (default true). */
  register?: boolean;
  /**
   * Turns on the sandbox-only extensions (docs/acquirers.md, "Sandbox-only extensions"): look-ups by
   * our reference, card-update feeds, fault modes, the scenario cards, replayed repeats. Default
   * false: the sandboxes answer as the references say, and nothing more.
   */
  extensions?: boolean;
  /**
   * Where the cardholder's browser reaches the 3-D Secure sandbox's challenge page, when not at the
   * sandbox's own 127.0.0.1 address (the service serves it under /sandbox/threeds).
   */
  threeDsPublicUrl?: string;
  /** The strict 3DS Server sandbox (lib/sandboxes/threeds/three-ds-server.ts) instead of the lenient one. */
  threeDsStrict?: boolean;
  /**
   * Also start the Worldline Direct sandbox (bambora's second platform, ./index.ts WORLDLINE_SANDBOX),
   * at `urls[WORLDLINE_SANDBOX.name]`, registered (with `register`) as that platform's sandbox with
   * its first account as the built-in test account of platform "worldline" (docs/decisions/0193).
   */
  worldline?: boolean;
}

type SandboxName = AcquirerName | typeof WORLDLINE_SANDBOX.name;

export interface RunningSandboxes {
  urls: Partial<Record<SandboxName | "threeds", string>>;
  /** The reporting API sandboxes (disputes and settlements), by acquirer, where one is published. */
  reportingUrls: Partial<Record<AcquirerName, string>>;
  /** The acquirer sandboxes' state, for tests that check what reached which acquirer. */
  ledgers: Partial<Record<SandboxName, SandboxLedger>>;
  close(): Promise<void>;
}

export async function startSandboxes({
  processors = ACQUIRER_NAMES,
  threeDs = true,
  ports = {},
  reportingPorts = {},
  hangMs,
  register = true,
  threeDsPublicUrl,
  threeDsStrict = false,
  extensions = false,
  worldline = false,
}: StartSandboxesOptions = {}): Promise<RunningSandboxes> {
  const running: { name: SandboxName | "threeds"; server: RunningSandbox }[] = [];
  const ledgers: Partial<Record<SandboxName, SandboxLedger>> = {};
  const reporting: { name: AcquirerName; server: RunningSandbox }[] = [];
  try {
    for (const name of processors) {
      const sandbox = SANDBOXES[name].create({ hangMs, extensions });
      ledgers[name] = sandbox.ledger;
      // Fault modes are an extension: a strict sandbox never even classifies requests for them.
      const handler = extensions ? withAcquirerFaults(name, SANDBOXES[name].faults, sandbox.handler, hangMs ?? DEFAULT_HANG_MS) : sandbox.handler;
      const server = await startSandboxServer({ name, handler, port: ports[name] });
      running.push({ name, server });
      if (register) registerSandbox(name, server.url, extensions);
      // Its reporting API, on a port of its own over the same ledger: the transactions the gateway
      // sandbox processed are the ones it reports (registered for test mode's reporting clients).
      const reportingSandbox = SANDBOXES[name].reporting;
      if (reportingSandbox) {
        const { handler: reportingHandler } = reportingSandbox.create({ extensions, ledger: sandbox.ledger });
        const reportingServer = await startSandboxServer({
          name: `${name} reporting`,
          handler: reportingHandler,
          port: reportingPorts[name],
          maxBodyBytes: reportingSandbox.maxBodyBytes,
        });
        reporting.push({ name, server: reportingServer });
        if (register) registerSandboxAddress(reportingSandboxKey(name), { url: reportingServer.url, path: "", extensions });
      }
    }
    if (worldline) {
      const { name } = WORLDLINE_SANDBOX;
      const sandbox = WORLDLINE_SANDBOX.create({ hangMs, sharedTestCards: true });
      ledgers[name] = sandbox.ledger;
      const handler = extensions ? WORLDLINE_SANDBOX.withFaults(sandbox.handler, hangMs ?? DEFAULT_HANG_MS) : sandbox.handler;
      const server = await startSandboxServer({ name, handler, port: ports[name] });
      running.push({ name, server });
      if (register)
        registerSandboxAddress(platformSandboxKey(WORLDLINE_SANDBOX.processor, WORLDLINE_SANDBOX.platform), {
          url: server.url,
          path: "",
          extensions,
          builtInAccount: platformSandboxAccountInput(WORLDLINE_SANDBOX, 0),
        });
    }
    if (threeDs) {
      const sandbox = threeDsStrict
        ? createThreeDsServerSandbox({ publicUrl: threeDsPublicUrl })
        : createThreeDsSandbox({ publicUrl: threeDsPublicUrl });
      const server = await startSandboxServer({ name: "threeds", handler: sandbox.handler, port: ports.threeds });
      running.push({ name: "threeds", server });
      if (register) {
        registerThreeDsSandboxUrl(server.url, sandbox.apiKey);
        registerThreeDsSandboxHandler(sandbox.handler);
      }
    }
  } catch (error) {
    await Promise.all([...running, ...reporting].map(({ server }) => server.close()));
    throw error;
  }
  return {
    urls: Object.fromEntries(running.map(({ name, server }) => [name, server.url])),
    reportingUrls: Object.fromEntries(reporting.map(({ name, server }) => [name, server.url])),
    ledgers,
    async close() {
      for (const { name } of reporting) if (register) registerSandboxAddress(reportingSandboxKey(name), undefined);
      await Promise.all(reporting.map(({ server }) => server.close()));
      for (const { name } of running) {
        if (!register || name === WORLDLINE_SANDBOX.name) continue;
        if (name === "threeds") {
          registerThreeDsSandboxUrl(undefined);
          registerThreeDsSandboxHandler(undefined);
        } else registerSandboxAddress(name, undefined);
      }
      await Promise.all(running.map(({ server }) => server.close()));
    },
  };
}
