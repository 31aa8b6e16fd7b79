// Which of its acquirer's APIs an account speaks (docs/decisions/0193-an-acquirer-with-more-than-one-platform.md).
// Most acquirers have one; bambora has Bambora North America (its first) and Worldline Direct. An
// account names a platform other than the first by its key (`AcquirerAccount.platform`), and
// everything that differs between platforms is read from here: credentials and their form fields,
// the account rules, the capabilities the routing and follow-ups check.
import type { AccountRules, AcquirerCapabilities, CredentialField } from "./contract";
import type { z } from "zod";
import { acquirerModule } from "./index";
import type { AcquirerName } from "./names";

export interface PlatformView {
  /** null: the acquirer's first platform. */
  key: string | null;
  label: string;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- each platform has its own credentials type
  credentials: { schema: z.ZodType<any>; fields: readonly CredentialField[] };
  accountRules: AccountRules;
  capabilities: AcquirerCapabilities;
}

export class UnknownPlatformError extends Error {
  constructor(name: AcquirerName, key: string) {
    const names = platformsOf(name).map((platform) => platform.name);
    super(names.length > 1 ? `${name} has no platform ${key}: ${names.join(" or ")}` : `${name} has one platform; ${key} is none of its`);
    this.name = "UnknownPlatformError";
  }
}

/** The platforms of `name`, its first one (key null, `name` its CLI and form name) first. */
export function platformsOf(name: AcquirerName): { key: string | null; name: string; label: string }[] {
  const acquirer = acquirerModule(name);
  if (!acquirer.platforms) return [{ key: null, name, label: name }];
  return [
    { key: null, name: acquirer.platforms.firstPlatformKey, label: acquirer.platforms.firstPlatformLabel },
    ...Object.entries(acquirer.platforms.others).map(([key, platform]) => ({ key, name: key, label: platform.label })),
  ];
}

/**
 * The stored platform key of a platform as typed in the CLI or the form ("worldline"; the first
 * platform's name, or nothing, is null). Throws UnknownPlatformError for a name `name` has not.
 */
export function platformKeyOf(name: AcquirerName, typed: string | null | undefined): string | null {
  const value = typed?.trim().toLowerCase();
  if (!value) return null;
  const found = platformsOf(name).find((platform) => platform.name === value);
  if (!found) throw new UnknownPlatformError(name, value);
  return found.key;
}

/** True when `key` names a platform of `name` other than its first. */
export function isPlatformOf(name: AcquirerName, key: string): boolean {
  return Boolean(acquirerModule(name).platforms?.others[key]);
}

/** What an account of `name` on `key` (null or absent: the first platform) is made of. */
export function platformView(name: AcquirerName, key?: string | null): PlatformView {
  const acquirer = acquirerModule(name);
  if (!key) {
    return {
      key: null,
      label: acquirer.platforms?.firstPlatformLabel ?? name,
      credentials: acquirer.credentials,
      accountRules: acquirer.accountRules,
      capabilities: acquirer.capabilities,
    };
  }
  const platform = acquirer.platforms?.others[key];
  if (!platform) throw new UnknownPlatformError(name, key);
  return { key, label: platform.label, credentials: platform.credentials, accountRules: platform.accountRules, capabilities: platform.capabilities };
}
