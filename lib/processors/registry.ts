// The typed registry of connectors: each is built from its configured settings (zod-validated) or,
// when its base URL is not configured, pointed at its sandbox. The sandbox launcher (lib/sandboxes)
// registers the sandbox's address and credentials here as configuration: production code never
// imports the simulators.
import { config } from "../env";
import { createBamboraConnector, type BamboraSettings } from "./bambora/client";
import { createClearhausConnector, type ClearhausSettings } from "./clearhaus/client";
import { createFinaroConnector, type FinaroSettings } from "./finaro/client";
import type { ProcessorConnector, ProcessorName } from "./types";
import { observeConnector } from "./observe-connector";

/** What a sandbox needs besides its address: its credentials (and Finaro's gateway path). */
export interface SandboxCredentials {
  finaro: Omit<FinaroSettings, "baseUrl" | "timeoutMs"> & { path: string };
  clearhaus: Omit<ClearhausSettings, "baseUrl" | "timeoutMs">;
  bambora: Omit<BamboraSettings, "baseUrl" | "timeoutMs">;
}

const state = globalThis as unknown as {
  __cpsSandboxUrls?: Partial<Record<ProcessorName, string>>;
  __cpsSandboxCredentials?: Partial<SandboxCredentials>;
};

/**
 * Called by the sandbox launcher: the connector of `name` talks to the sandbox at `baseUrl` with
 * `credentials` (kept when omitted, so a test can point the connector elsewhere and back).
 */
export function registerSandboxUrl<TName extends ProcessorName>(
  name: TName,
  baseUrl: string | undefined,
  credentials?: SandboxCredentials[TName],
): void {
  state.__cpsSandboxUrls ??= {};
  state.__cpsSandboxCredentials ??= {};
  if (credentials) state.__cpsSandboxCredentials[name] = credentials;
  if (baseUrl) state.__cpsSandboxUrls[name] = baseUrl;
  else delete state.__cpsSandboxUrls[name];
}

function sandboxCredentials<TName extends ProcessorName>(name: TName): SandboxCredentials[TName] {
  const credentials = state.__cpsSandboxCredentials?.[name];
  if (!credentials) throw new ProcessorNotConfiguredError(name, "its sandbox was registered without credentials");
  return credentials as SandboxCredentials[TName];
}

export function sandboxUrl(name: ProcessorName): string | undefined {
  return state.__cpsSandboxUrls?.[name];
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

/** True when the base URL of `name` is configured (a real acquirer or an outside sandbox). */
export function isProcessorConfigured(name: ProcessorName): boolean {
  const settings = config();
  return Boolean({ finaro: settings.FINARO_BASE_URL, clearhaus: settings.CLEARHAUS_BASE_URL, bambora: settings.BAMBORA_BASE_URL }[name]);
}

function required(name: ProcessorName, variable: string, value: string | undefined): string {
  if (!value) throw new ProcessorNotConfiguredError(name, `${variable} is required when its base URL is set`);
  return value;
}

export interface GetConnectorOptions {
  /** Overrides the configured time-out (tests, CLI). */
  timeoutMs?: number;
}

/** The connector of `name`, every call of it logged, counted and traced (lib/observability). */
export function getConnector(name: ProcessorName, options: GetConnectorOptions = {}): ProcessorConnector {
  return observeConnector(buildConnector(name, options));
}

function buildConnector(name: ProcessorName, options: GetConnectorOptions): ProcessorConnector {
  const settings = config();
  const timeoutMs = options.timeoutMs ?? processorTimeoutMs(name);
  const sandbox = sandboxUrl(name);
  switch (name) {
    case "finaro":
      if (settings.FINARO_BASE_URL) {
        return createFinaroConnector({
          baseUrl: settings.FINARO_BASE_URL,
          merchantId: required(name, "FINARO_MERCHANT_ID", settings.FINARO_MERCHANT_ID),
          signatureKey: required(name, "FINARO_SIGNATURE_KEY", settings.FINARO_SIGNATURE_KEY),
          timeoutMs,
        });
      }
      if (!sandbox) break;
      {
        const { path, ...credentials } = sandboxCredentials("finaro");
        return createFinaroConnector({ baseUrl: `${sandbox}${path}`, ...credentials, timeoutMs, sandboxExtensions: true });
      }
    case "clearhaus":
      if (settings.CLEARHAUS_BASE_URL) {
        return createClearhausConnector({
          baseUrl: settings.CLEARHAUS_BASE_URL,
          apiKey: required(name, "CLEARHAUS_API_KEY", settings.CLEARHAUS_API_KEY),
          timeoutMs,
        });
      }
      if (!sandbox) break;
      return createClearhausConnector({ baseUrl: sandbox, ...sandboxCredentials("clearhaus"), timeoutMs, sandboxExtensions: true });
    case "bambora":
      if (settings.BAMBORA_BASE_URL) {
        return createBamboraConnector({
          baseUrl: settings.BAMBORA_BASE_URL,
          accessToken: required(name, "BAMBORA_ACCESS_TOKEN", settings.BAMBORA_ACCESS_TOKEN),
          merchantNumber: required(name, "BAMBORA_MERCHANT_NUMBER", settings.BAMBORA_MERCHANT_NUMBER),
          secretToken: required(name, "BAMBORA_SECRET_TOKEN", settings.BAMBORA_SECRET_TOKEN),
          timeoutMs,
        });
      }
      if (!sandbox) break;
      return createBamboraConnector({ baseUrl: sandbox, ...sandboxCredentials("bambora"), timeoutMs, sandboxExtensions: true });
  }
  throw new ProcessorNotConfiguredError(name, "its base URL is not configured and its sandbox is not running");
}
