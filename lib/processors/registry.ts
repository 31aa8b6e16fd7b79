// The typed registry of connectors: each is built from its configured address (the acquirer's
// endpoint, operator configuration: FINARO_BASE_URL ...) or, when that is not configured, pointed at
// its sandbox. Credentials are not configuration here: they belong to each merchant's acquirer
// account and come with every call (bindConnector). The sandbox launcher (lib/sandboxes) registers
// the sandbox's address here as configuration: production code never imports the simulators.
import { config } from "../env";
import { createBamboraConnector } from "./bambora/client";
import { createClearhausConnector } from "./clearhaus/client";
import { createFinaroConnector } from "./finaro/client";
import type { CredentialsOf, ProcessorCredentials } from "./credentials";
import type { AcquirerConnector, CallOptions, ConnectorCall, ProcessorConnector, ProcessorName } from "./types";
import { observeConnector } from "./observe-connector";

/** What a sandbox needs besides its address: Finaro's gateway path. */
export interface SandboxEndpoint {
  path?: string;
}

const state = globalThis as unknown as {
  __cpsSandboxUrls?: Partial<Record<ProcessorName, string>>;
  __cpsSandboxPaths?: Partial<Record<ProcessorName, string>>;
};

/**
 * Called by the sandbox launcher: the connector of `name` talks to the sandbox at `baseUrl` (plus
 * `endpoint.path`, kept when omitted, so a test can point the connector elsewhere and back);
 * undefined removes it.
 */
export function registerSandboxUrl(name: ProcessorName, baseUrl: string | undefined, endpoint: SandboxEndpoint = {}): void {
  state.__cpsSandboxUrls ??= {};
  state.__cpsSandboxPaths ??= {};
  if (endpoint.path !== undefined) state.__cpsSandboxPaths[name] = endpoint.path;
  if (baseUrl) state.__cpsSandboxUrls[name] = baseUrl.replace(/\/+$/, "");
  else delete state.__cpsSandboxUrls[name];
}

/** The registered sandbox address of `name`, if one runs. */
export function sandboxUrl(name: ProcessorName): string | undefined {
  return state.__cpsSandboxUrls?.[name];
}

/** Where calls to `name`'s sandbox go: its address and path (Finaro's gateway endpoint). */
function sandboxEndpoint(name: ProcessorName): string | undefined {
  const url = sandboxUrl(name);
  return url ? `${url}${state.__cpsSandboxPaths?.[name] ?? ""}` : undefined;
}

export class ProcessorNotConfiguredError extends Error {
  constructor(name: ProcessorName, detail: string) {
    super(`processor ${name} is not available: ${detail}`);
    this.name = "ProcessorNotConfiguredError";
  }
}

/** The configured time-out of one call to `name` in milliseconds. */
export function processorTimeoutMs(name: ProcessorName): number {
  const settings = config();
  const specific = { finaro: settings.FINARO_TIMEOUT_MS, clearhaus: settings.CLEARHAUS_TIMEOUT_MS, bambora: settings.BAMBORA_TIMEOUT_MS }[
    name
  ];
  return specific ?? settings.PROCESSOR_TIMEOUT_MS;
}

/** The configured address of `name` (a real acquirer or an outside sandbox), if any. */
function configuredBaseUrl(name: ProcessorName): string | undefined {
  const settings = config();
  return { finaro: settings.FINARO_BASE_URL, clearhaus: settings.CLEARHAUS_BASE_URL, bambora: settings.BAMBORA_BASE_URL }[name];
}

/** True when the base URL of `name` is configured (a real acquirer or an outside sandbox). */
export function isProcessorConfigured(name: ProcessorName): boolean {
  return Boolean(configuredBaseUrl(name));
}

/** True when calls to `name` have somewhere to go: its configured address or a running sandbox. */
export function isProcessorReachable(name: ProcessorName): boolean {
  return isProcessorConfigured(name) || Boolean(sandboxUrl(name));
}

export interface GetConnectorOptions {
  /** Overrides the configured time-out (tests, CLI). */
  timeoutMs?: number;
}

/** The connector of `name` at its configured address or sandbox; calls need an account's credentials. */
export function getAcquirerConnector<TName extends ProcessorName>(
  name: TName,
  options: GetConnectorOptions = {},
): AcquirerConnector<CredentialsOf<TName>> {
  const configured = configuredBaseUrl(name);
  const baseUrl = configured ?? sandboxEndpoint(name);
  if (!baseUrl) throw new ProcessorNotConfiguredError(name, "its base URL is not configured and its sandbox is not running");
  const timeoutMs = options.timeoutMs ?? processorTimeoutMs(name);
  // Only a sandbox the launcher registered may be relied on for its sandbox-only look-ups; a
  // configured base URL is the acquirer's (or stands for it), with the acquirer's real capabilities.
  const sandboxExtensions = !configured;
  const connectors: { [N in ProcessorName]: () => AcquirerConnector<CredentialsOf<N>> } = {
    finaro: () => createFinaroConnector({ baseUrl, timeoutMs, sandboxExtensions }),
    clearhaus: () => createClearhausConnector({ baseUrl, timeoutMs, sandboxExtensions }),
    bambora: () => createBamboraConnector({ baseUrl, timeoutMs, sandboxExtensions }),
  };
  return connectors[name]() as AcquirerConnector<CredentialsOf<TName>>;
}

/** `connector` with `credentials` on every call: what an acquirer account's calls go through. */
export function bindCredentials<TCredentials>(
  connector: AcquirerConnector<TCredentials>,
  credentials: TCredentials,
  accountId: string,
): ProcessorConnector {
  const call = (options?: CallOptions): ConnectorCall<TCredentials> => ({ credentials, signal: options?.signal });
  return {
    name: connector.name,
    accountId,
    authorize: (request, options) => connector.authorize(request, call(options)),
    capture: (request, options) => connector.capture(request, call(options)),
    refund: (request, options) => connector.refund(request, call(options)),
    void: (request, options) => connector.void(request, call(options)),
    payout: (request, options) => connector.payout(request, call(options)),
    cardUpdates: (request, options) => connector.cardUpdates(request, call(options)),
    lookups: connector.lookups,
    lookupOperation: (request, options) => connector.lookupOperation(request, call(options)),
    checkConnection: (options) => connector.checkConnection(call(options)),
  };
}

/**
 * The connector of an acquirer account's processor, every call carrying that account's credentials,
 * logged, counted and traced (lib/observability). Throws ProcessorNotConfiguredError when the
 * processor has neither an address nor a sandbox.
 */
export function bindConnector(account: { id: string } & ProcessorCredentials, options: GetConnectorOptions = {}): ProcessorConnector {
  switch (account.processor) {
    case "finaro":
      return observeConnector(bindCredentials(getAcquirerConnector("finaro", options), account.credentials, account.id));
    case "clearhaus":
      return observeConnector(bindCredentials(getAcquirerConnector("clearhaus", options), account.credentials, account.id));
    case "bambora":
      return observeConnector(bindCredentials(getAcquirerConnector("bambora", options), account.credentials, account.id));
  }
}
