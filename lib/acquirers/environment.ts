// An acquirer's own environment variables, declared by its module (AcquirerEnvironment in
// ./contract.ts) beside the endpoint variables every acquirer has (lib/env.ts): settings of its own,
// validated at start; the process-wide credentials of earlier versions, which the local demo and
// `accounts import-env` read and a production start refuses; and variables retired altogether.
import { acquirerEndpointVariables, config, ConfigError, type AppConfig } from "../env";
import { ACQUIRERS } from "./index";
import { ACQUIRER_LABELS, ACQUIRER_NAMES, type AcquirerName } from "./names";

const validated = new WeakMap<AppConfig, Map<AcquirerName, unknown>>();

/** `name`'s own settings, validated by its module's schema (throws a ConfigError naming the variable). */
export function acquirerVariables(name: AcquirerName, settings: AppConfig = config()): unknown {
  const known = validated.get(settings) ?? new Map<AcquirerName, unknown>();
  validated.set(settings, known);
  if (known.has(name)) return known.get(name);
  const schema = ACQUIRERS[name].environment?.variables;
  if (!schema) return {};
  const parsed = schema.safeParse(settings.acquirerVariables);
  if (!parsed.success) throw new ConfigError(parsed.error.issues.map((issue) => `${issue.path.join(".")}: ${issue.message}`));
  known.set(name, parsed.data);
  return parsed.data;
}

export type LegacyAcquirerCredentials = Partial<Record<AcquirerName, Record<string, string>>>;

/**
 * The legacy credentials set, per processor whose every variable is set (raw strings; the account
 * schemas validate them). Throws when a processor's set is incomplete: half an account is a mistake.
 */
export function legacyAcquirerCredentials(settings: AppConfig = config()): LegacyAcquirerCredentials {
  const result: LegacyAcquirerCredentials = {};
  for (const name of ACQUIRER_NAMES) {
    const variables = ACQUIRERS[name].environment?.legacyCredentials;
    if (!variables) continue;
    const values = Object.entries(variables).map(([key, variable]) => [key, variable, settings.acquirerVariables[variable]] as const);
    const set = values.filter(([, , value]) => value);
    if (set.length === 0) continue;
    if (set.length < values.length) {
      throw new ConfigError(
        values
          .filter(([, , value]) => !value)
          .map(([, variable]) => `${variable}: required together with ${set.map(([, named]) => named).join(", ")}`),
      );
    }
    result[name] = Object.fromEntries(values.map(([key, , value]) => [key, value!]));
  }
  return result;
}

/**
 * A serving process in production does not start while a legacy credential variable is set: they
 * are no longer read for payments (each merchant's acquirer accounts are), and a forgotten secret in
 * the environment should not look as if it were in use. The message names the one-time upgrade step.
 * Retired variables are refused with their module's reason.
 */
export function refuseLegacyAcquirerVariables(settings: AppConfig = config()): void {
  if (!settings.isProduction) return;
  const set = ACQUIRER_NAMES.flatMap((name) => Object.values(ACQUIRERS[name].environment?.legacyCredentials ?? {})).filter(
    (variable) => settings.acquirerVariables[variable],
  );
  const retired = ACQUIRER_NAMES.flatMap((name) => {
    const declared = ACQUIRERS[name].environment?.retired;
    return (declared?.variables ?? []).filter((variable) => settings.acquirerVariables[variable]).map((variable) => ({ variable, reason: declared!.reason }));
  });
  if (set.length === 0 && retired.length === 0) return;
  throw new ConfigError([
    ...set.map(
      (variable) =>
        `${variable}: no longer read in production: acquirer credentials belong to each merchant's acquirer accounts. Run \`node dist/cli.js accounts import-env\` once with these variables set (docs/operations.md, "Upgrading to per-merchant acquirer accounts"), then remove them`,
    ),
    ...retired.map(({ variable, reason }) => `${variable}: ${reason}`),
  ]);
}

/**
 * <NAME>_REPORTING_SANDBOX_PORT (lib/env.ts) set for an acquirer that publishes no reporting API: no
 * such sandbox runs, so the setting is a mistake (the wrong acquirer's name), refused with the reason.
 */
export function refuseReportingSandboxPortWithoutApi(settings: AppConfig = config()): void {
  const refused = ACQUIRER_NAMES.filter((name) => settings.acquirers[name].reportingSandboxPort && !ACQUIRERS[name].reporting);
  if (refused.length === 0) return;
  throw new ConfigError(
    refused.map(
      (name) =>
        `${acquirerEndpointVariables(name).reportingSandboxPort}: ${ACQUIRER_LABELS[name]} publishes no reporting API, so no reporting sandbox of it runs; unset it (docs/acquirers.md, "Disputes and settlements")`,
    ),
  );
}

/** At start: every acquirer's own settings are valid, and a production start has no variable of earlier versions. */
export function checkAcquirerEnvironment(settings: AppConfig = config()): void {
  for (const name of ACQUIRER_NAMES) acquirerVariables(name, settings);
  refuseReportingSandboxPortWithoutApi(settings);
  refuseLegacyAcquirerVariables(settings);
}
