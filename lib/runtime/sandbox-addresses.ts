// Where the acquirer sandboxes of this process listen, as configuration: the sandbox launcher
// (lib/sandboxes/acquirers/start-sandboxes.ts) writes an address here when it starts one, the
// connectors' registry (lib/acquirers/registry.ts) reads it. Neither room imports the other: a
// sandbox is written from its acquirer's public reference, never from our connector (docs/acquirers.md).

export interface SandboxAddress {
  /** http://127.0.0.1:<port> */
  url: string;
  /** The gateway path under the address (Finaro's single endpoint); "" for the others. */
  path: string;
  /**
   * The sandbox-only conveniences are on (look-ups the real API lacks, card-update feeds, fault
   * modes, scenario cards): a connector may use the look-up extension only when this is true.
   */
  extensions: boolean;
  /**
   * The account input (processor, credentials, the acquirer's view of the account) of the test
   * account merchants get at this sandbox when they have no test account of their own there
   * (lib/routing/accounts/add-built-in-sandbox-accounts.ts): what makes test mode work on any
   * deployment without setting anything up.
   */
  builtInAccount?: Record<string, unknown>;
}

const state = globalThis as unknown as { __cpsSandboxAddresses?: Map<string, SandboxAddress> };

function addresses(): Map<string, SandboxAddress> {
  return (state.__cpsSandboxAddresses ??= new Map());
}

/** The name the sandbox of acquirer `name`'s platform `platform` is registered under (docs/decisions/0193): "bambora:worldline". */
export function platformSandboxKey(name: string, platform: string): string {
  return `${name}:${platform}`;
}

/** The name the sandbox of acquirer `name`'s reporting API (disputes and settlements, issue 40) is registered under. */
export function reportingSandboxKey(name: string): string {
  return `${name}:reporting`;
}

/** Records (or, with undefined, forgets) where the sandbox of acquirer `name` listens. */
export function registerSandboxAddress(name: string, address: SandboxAddress | undefined): void {
  if (address) addresses().set(name, { ...address, url: address.url.replace(/\/+$/, "") });
  else addresses().delete(name);
}

/** The address of acquirer `name`'s sandbox in this process, if one runs. */
export function sandboxAddress(name: string): SandboxAddress | undefined {
  return addresses().get(name);
}
