// The acquirers' reporting APIs (disputes and settlements, issue 40), over the modules' `reporting`
// (./contract.ts). Where a reporting client's calls go follows the connectors' rule
// (./registry.ts, docs/decisions/0108-test-mode-and-live-mode.md): live accounts only to the
// configured (or the reference's production) endpoint, never a sandbox; test accounts to the
// configured test endpoint, else the built-in sandbox of the reporting API when this process runs
// one (lib/runtime/sandbox-addresses.ts, written by the sandbox launcher: configuration, not imports).
import type { AcquirerReporting, AcquirerReportingClient } from "./contract";
import { acquirerVariables } from "./environment";
import { acquirerModule } from "./index";
import type { AcquirerName } from "./names";
import { observeReportingClient } from "./plumbing/observe-reporting";
import { processorTimeoutMs } from "./registry";
import { reportingSandboxKey, sandboxAddress } from "../runtime/sandbox-addresses";
import type { Mode } from "../mode";

/** The reporting API of `processor`, or undefined where its acquirer publishes none. */
export function reportingOf(processor: AcquirerName): AcquirerReporting | undefined {
  return acquirerModule(processor).reporting;
}

/** Where `mode`'s reporting calls of `processor` go, and whether that is a sandbox this process started. */
function reportingEndpoint(processor: AcquirerName, reporting: AcquirerReporting, mode: Mode): { url: string; sandbox?: { extensions: boolean } } | undefined {
  const configured = reporting.endpoint(mode, acquirerVariables(processor));
  if (configured) return { url: configured };
  const address = mode === "test" ? sandboxAddress(reportingSandboxKey(processor)) : undefined;
  return address ? { url: `${address.url}${address.path}`, sandbox: { extensions: address.extensions } } : undefined;
}

/**
 * The reporting client of `processor` at the endpoint of `mode`'s accounts (calls carry an account's
 * reporting credentials); undefined when the acquirer has no reporting API or no endpoint is
 * configured for that mode (and, for test, no built-in sandbox runs).
 */
export function reportingClientFor(processor: AcquirerName, mode: Mode): AcquirerReportingClient<unknown> | undefined {
  const reporting = reportingOf(processor);
  if (!reporting) return undefined;
  const endpoint = reportingEndpoint(processor, reporting, mode);
  if (!endpoint) return undefined;
  const client = reporting.createClient({
    baseUrl: endpoint.url,
    timeoutMs: processorTimeoutMs(processor),
    sandbox: endpoint.sandbox,
    variables: acquirerVariables(processor),
  }) as AcquirerReportingClient<unknown>;
  return observeReportingClient(client, processor, mode);
}
