// The acquirers' reporting APIs (issue 40): which acquirer publishes one, and a client of it for an
// account's mode. A minimal version for the gateway's domain side: it reaches a configured endpoint
// only; the built-in sandbox of a reporting API is registered by the acquirer side's version of this
// file, which replaces this one (same two signatures).
import type { AcquirerReporting, AcquirerReportingClient } from "./contract";
import { acquirerVariables } from "./environment";
import { ACQUIRERS } from "./index";
import type { AcquirerName } from "./names";
import { processorTimeoutMs } from "./registry";
import type { Mode } from "../mode";

/** The reporting API of `processor`'s acquirer; undefined: it publishes none. */
export function reportingOf(processor: AcquirerName): AcquirerReporting | undefined {
  return ACQUIRERS[processor].reporting;
}

/** A client of `processor`'s reporting API for `mode`'s accounts; undefined when it has none or no endpoint is configured for that mode. */
export function reportingClientFor(processor: AcquirerName, mode: Mode): AcquirerReportingClient<unknown> | undefined {
  const reporting = reportingOf(processor);
  if (!reporting) return undefined;
  const variables = acquirerVariables(processor);
  const baseUrl = reporting.endpoint(mode, variables);
  if (!baseUrl) return undefined;
  return reporting.createClient({ baseUrl, timeoutMs: processorTimeoutMs(processor), variables });
}
