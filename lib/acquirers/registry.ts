// The typed registry of connectors, over the modules of ./index.ts. Where an acquirer account's calls
// go depends on its mode (docs/decisions/0108-test-mode-and-live-mode.md): a live account's go to
// the acquirer's production endpoint (<NAME>_BASE_URL), never to a sandbox; a test account's go to the
// acquirer's test endpoint (<NAME>_TEST_BASE_URL) or, when none is configured, to the built-in
// sandbox. Endpoints are operator configuration; credentials belong to each merchant's acquirer
// account and come with every call (bindConnector). The sandbox launcher (lib/sandboxes) records each
// sandbox's address in lib/runtime/sandbox-addresses.ts, where this registry reads it: configuration,
// not imports (production code never imports the simulators, and they never import the connectors).
import { acquirerEndpointVariables, config } from "../env";
import type { CredentialsOf, ProcessorCredentials } from "./credentials";
import { refusalOf, type AcquirerConnector, type CallOptions, type ConnectorCall, type ProcessorConnector } from "./contract";
import { acquirerVariables } from "./environment";
import { acquirerModule } from "./index";
import { ACQUIRER_LABELS, type AcquirerName } from "./names";
import { observeConnector } from "./plumbing/observe-connector";
import { platformSandboxKey, registerSandboxAddress, sandboxAddress, type SandboxAddress } from "../runtime/sandbox-addresses";
import type { Mode } from "../mode";

const state = globalThis as unknown as { __cpsSandboxRemembered?: Partial<Record<AcquirerName, SandboxAddress>> };

/** What a sandbox needs besides its address: Finaro's gateway path, whether its extensions are on, its built-in test account. */
export interface SandboxEndpoint {
  path?: string;
  extensions?: boolean;
  builtInAccount?: Record<string, unknown>;
}

/**
 * Points the connector of `name` at a sandbox at `baseUrl` (plus `endpoint.path`, kept when omitted,
 * so a test can point the connector elsewhere and back); undefined removes it. The sandbox launcher
 * registers its sandboxes through lib/runtime/sandbox-addresses.ts directly; tests call this.
 */
export function registerSandboxUrl(name: AcquirerName, baseUrl: string | undefined, endpoint: SandboxEndpoint = {}): void {
  const earlier = sandboxAddress(name);
  if (!baseUrl) {
    // The path and extensions stay known for the next registration of the same sandbox.
    state.__cpsSandboxRemembered ??= {};
    if (earlier) state.__cpsSandboxRemembered[name] = earlier;
    registerSandboxAddress(name, undefined);
    return;
  }
  const remembered = earlier ?? state.__cpsSandboxRemembered?.[name];
  registerSandboxAddress(name, {
    url: baseUrl,
    path: endpoint.path ?? remembered?.path ?? "",
    extensions: endpoint.extensions ?? remembered?.extensions ?? true,
    builtInAccount: endpoint.builtInAccount ?? remembered?.builtInAccount,
  });
}

/** The registered sandbox address of `name`, if one runs. */
export function sandboxUrl(name: AcquirerName): string | undefined {
  return sandboxAddress(name)?.url;
}

/**
 * The built-in test accounts of `name`'s sandboxes: its first platform's and each other platform's
 * whose sandbox runs (bambora: a Bambora North America CAD account and a Worldline DKK one), when
 * test accounts of `name` go to the built-in sandbox.
 */
export function builtInSandboxAccounts(name: AcquirerName): Record<string, unknown>[] {
  if (!testModeUsesSandbox(name)) return [];
  const others = Object.keys(acquirerModule(name).platforms?.others ?? {});
  return [sandboxAddress(name)?.builtInAccount, ...others.map((platform) => sandboxAddress(platformSandboxKey(name, platform))?.builtInAccount)].filter(
    (account): account is Record<string, unknown> => Boolean(account),
  );
}

/** Where calls to `name`'s sandbox go: its address and path (Finaro's gateway endpoint), and whether its extensions are on. */
function sandboxEndpoint(name: AcquirerName): { url: string; extensions: boolean } | undefined {
  const address = sandboxAddress(name);
  return address ? { url: `${address.url}${address.path}`, extensions: address.extensions } : undefined;
}

export class ProcessorNotConfiguredError extends Error {
  constructor(name: AcquirerName, detail: string) {
    super(`processor ${name} is not available: ${detail}`);
    this.name = "ProcessorNotConfiguredError";
  }
}

/** The configured time-out of one call to `name` in milliseconds. */
export function processorTimeoutMs(name: AcquirerName): number {
  const settings = config();
  return settings.acquirers[name].timeoutMs ?? settings.PROCESSOR_TIMEOUT_MS;
}

/** The configured endpoint of `name` for `mode`'s accounts (the acquirer's production or test endpoint), if any. */
function configuredBaseUrl(name: AcquirerName, mode: Mode): string | undefined {
  const endpoints = config().acquirers[name];
  return mode === "live" ? endpoints.baseUrl : endpoints.testBaseUrl;
}

/** True when test accounts of `name` go to a configured test endpoint (so the built-in sandbox is not needed). */
export function isTestEndpointConfigured(name: AcquirerName): boolean {
  return Boolean(configuredBaseUrl(name, "test"));
}

/**
 * Where `mode`'s accounts of `name` send their calls: live only to the configured production
 * endpoint, never a sandbox (a forgotten variable must not turn live payments into simulated ones);
 * test to the configured test endpoint, else the built-in sandbox when it runs.
 */
/**
 * Where calls of `mode`'s accounts of `name` go: the configured base URL, else (test mode only) the
 * built-in sandbox this process registered, returned as `sandbox` too (its extensions may be used).
 */
function endpointFor(name: AcquirerName, mode: Mode): { url: string; sandbox?: ReturnType<typeof sandboxEndpoint> } | undefined {
  const configured = configuredBaseUrl(name, mode);
  if (configured) return { url: configured };
  const sandbox = mode === "test" ? sandboxEndpoint(name) : undefined;
  return sandbox ? { url: sandbox.url, sandbox } : undefined;
}

/** True when calls of `mode`'s accounts of `name` have somewhere to go. */
export function isProcessorReachable(name: AcquirerName, mode: Mode): boolean {
  return Boolean(endpointFor(name, mode));
}

/** True when test accounts of `name` go to the built-in sandbox (no test endpoint configured, the sandbox runs). */
export function testModeUsesSandbox(name: AcquirerName): boolean {
  return !isTestEndpointConfigured(name) && Boolean(sandboxUrl(name));
}

export interface GetConnectorOptions {
  /** Overrides the configured time-out (tests, CLI). */
  timeoutMs?: number;
  /** The account's platform when it is not the processor's first (decision 0193). */
  platform?: string | null;
}

/** The connector of `name` at the endpoint of `mode`'s accounts; calls need an account's credentials. */
export function getAcquirerConnector<TName extends AcquirerName>(
  name: TName,
  mode: Mode,
  options: GetConnectorOptions = {},
): AcquirerConnector<CredentialsOf<TName>> {
  if (options.platform) return getPlatformConnector(name, options.platform, mode, options) as AcquirerConnector<CredentialsOf<TName>>;
  const endpoint = endpointFor(name, mode);
  if (!endpoint) {
    const variables = acquirerEndpointVariables(name);
    throw new ProcessorNotConfiguredError(
      name,
      mode === "live"
        ? `its live endpoint (${variables.baseUrl}) is not configured`
        : `its test endpoint (${variables.testBaseUrl}) is not configured and its sandbox is not running`,
    );
  }
  const { url: baseUrl, sandbox } = endpoint;
  // The sandbox-only extensions (a look-up the real API lacks, card-update feeds) are used only
  // against a sandbox this process registered with them on, never against a configured base URL.
  return acquirerModule(name).createConnector({
    baseUrl,
    timeoutMs: options.timeoutMs ?? processorTimeoutMs(name),
    sandbox: sandbox ? { extensions: sandbox.extensions } : undefined,
    variables: acquirerVariables(name),
  }) as AcquirerConnector<CredentialsOf<TName>>;
}

/**
 * The connector of `name`'s platform `platform` (decision 0193): its configured endpoint for `mode`
 * (the module's own variables), else for test accounts its built-in sandbox when it runs.
 */
function getPlatformConnector(name: AcquirerName, platform: string, mode: Mode, options: GetConnectorOptions): AcquirerConnector<unknown> {
  const spec = acquirerModule(name).platforms?.others[platform];
  if (!spec) throw new ProcessorNotConfiguredError(name, `it has no platform ${platform}`);
  const variables = acquirerVariables(name);
  const configured = spec.endpoint(mode, variables);
  const address = !configured && mode === "test" ? sandboxAddress(platformSandboxKey(name, platform)) : undefined;
  const baseUrl = configured ?? (address ? `${address.url}${address.path}` : undefined);
  if (!baseUrl)
    throw new ProcessorNotConfiguredError(
      name,
      mode === "live"
        ? `its ${spec.label} live endpoint (${spec.endpointVariables.live}) is not configured`
        : `its ${spec.label} test endpoint (${spec.endpointVariables.test}) is not configured and its sandbox is not running`,
    );
  return spec.createConnector({
    baseUrl,
    timeoutMs: options.timeoutMs ?? processorTimeoutMs(name),
    sandbox: address ? { extensions: address.extensions } : undefined,
    variables,
  });
}

/**
 * `connector` with `credentials` on every call: what an acquirer account's calls go through. An
 * operation the connector does not have (a capability its acquirer lacks) answers the default
 * refusal without a call.
 */
export function bindCredentials<TCredentials>(
  connector: AcquirerConnector<TCredentials>,
  credentials: TCredentials,
  accountId: string,
  mode: Mode,
): ProcessorConnector {
  const call = (options?: CallOptions): ConnectorCall<TCredentials> => ({ credentials, signal: options?.signal });
  const label = ACQUIRER_LABELS[connector.name];
  return {
    name: connector.name,
    accountId,
    mode,
    authorize: (request, options) => connector.authorize(request, call(options)),
    capture: (request, options) => connector.capture(request, call(options)),
    refund: (request, options) => connector.refund(request, call(options)),
    void: (request, options) => connector.void(request, call(options)),
    payout: (request, options) =>
      connector.payout ? connector.payout(request, call(options)) : Promise.resolve(refusalOf(connector.name, label, "payout")),
    cardUpdates: (request, options) =>
      connector.cardUpdates
        ? connector.cardUpdates(request, call(options))
        : Promise.reject(new Error(refusalOf(connector.name, label, "cardUpdates").message)),
    lookups: connector.lookups,
    lookupOperation: (request, options) => connector.lookupOperation(request, call(options)),
    checkConnection: (options) => connector.checkConnection(call(options)),
  };
}

/**
 * The connector of an acquirer account's processor at its mode's endpoint, every call carrying that
 * account's credentials, logged, counted and traced (lib/observability). Throws
 * ProcessorNotConfiguredError when the mode has no endpoint for the processor.
 */
export function bindConnector(
  account: { id: string; mode: Mode } & ProcessorCredentials,
  options: GetConnectorOptions = {},
): ProcessorConnector {
  const { id, mode } = account;
  // The credentials were parsed by this processor's (platform's) own schema (parseCredentials).
  const connector = getAcquirerConnector(account.processor, mode, { ...options, platform: account.platform }) as AcquirerConnector<unknown>;
  return observeConnector(bindCredentials(connector, account.credentials, id, mode));
}
