// `accounts ...`: the operator's commands for merchants' acquirer accounts (docs/operations.md).
// Credentials come from a JSON file (--credentials-file, keep it mode 0600 and delete it after) or
// --credential key=value options; they are never printed back, only their fingerprint.
import { readFileSync } from "node:fs";
import { z } from "zod";
import { db } from "../db";
import { recordAuditEntry } from "../audit/audit";
import { CREDENTIAL_FIELDS } from "../acquirers/credentials";
import { describeCurrencies, accountModeSchema } from "../routing/accounts/account-input";
import { auditFields, type AcquirerAccountView } from "../routing/accounts/account-view";
import { createAcquirerAccount } from "../routing/accounts/create-acquirer-account";
import { updateAcquirerAccount } from "../routing/accounts/update-acquirer-account";
import { listAcquirerAccounts } from "../routing/accounts/list-acquirer-accounts";
import { testAcquirerConnection } from "../routing/accounts/test-acquirer-connection";
import { importLegacyAccounts } from "../routing/accounts/import-legacy-accounts";
import { ACQUIRERS } from "../acquirers";
import { ACQUIRER_NAMES, acquirerNameList, isAcquirerName, type AcquirerName } from "../acquirers/names";
import { config } from "../env";
import type { CliResult, CommandHandler } from "./commands";

type Options = Record<string, string | boolean | string[] | undefined>;

/** The acquirers whose process-wide credentials of earlier versions `accounts import-env` turns into accounts. */
const IMPORTABLE = ACQUIRER_NAMES.filter((name) => ACQUIRERS[name].legacyImport && ACQUIRERS[name].environment?.legacyCredentials);
/** The acquirers of earlier versions' variables that cannot be imported. */
const RETIRED = ACQUIRER_NAMES.filter((name) => ACQUIRERS[name].environment?.retired);
/** `--<name>-merchant-id`, for the acquirers whose import asks for (or may take) the merchant id. */
const MERCHANT_ID_OPTIONS = IMPORTABLE.flatMap((name) => {
  const option = ACQUIRERS[name].legacyImport?.merchantIdOption;
  return option ? [{ name, option: `${name}-merchant-id`, form: option }] : [];
});
const variablesOf = (names: readonly AcquirerName[]) => names.map((name) => `${name.toUpperCase()}_*`);

export const ACCOUNT_USAGE = `  accounts list --merchant <id>                 a merchant's acquirer accounts (credentials are never shown: their fingerprint)
  accounts add --merchant <id> --processor ${ACQUIRER_NAMES.join("|")} --name <label>
               --acquirer-merchant-id <id> --mcc <4 digits> --merchant-name <name> --country <CC>
               --descriptor <text> --currencies <EUR,DKK|any> [--mode test|live] [--bin-visa <bin>]
               [--bin-mastercard <bin>] [--bin-amex <bin>] [--disabled]
               (--credentials-file <json> | --credential <key>=<value> ...)
                                                credential keys: ${Object.entries(CREDENTIAL_FIELDS)
                                                  .map(
                                                    ([processor, fields]) => `${processor}: ${fields.map((field) => field.key).join(", ")}`,
                                                  )
                                                  .join("; ")}
  accounts update --merchant <id> --account <id> [any option of add but --processor] [--enabled|--disabled]
  accounts disable --merchant <id> --account <id>
                                                the account takes no new payments; its payments' captures,
                                                refunds and voids still go to it
  accounts test --merchant <id> --account <id>  one harmless authenticated call to the acquirer with the account's credentials
                                                (needs the acquirer's *_BASE_URL: the CLI cannot reach a service's
                                                in-process sandboxes; locally, test from the back office)
  accounts import-env --mcc <4 digits> --merchant-name <name> --country <CC> --descriptor <text> [--mode test|live]
               ${MERCHANT_ID_OPTIONS.map(({ option, form }) => `[--${option} <${form}>] `).join("")}[--bin-visa ...]
                                                upgrade: every merchant gets accounts built from ${variablesOf(ACQUIRER_NAMES).slice(0, -1).join(", ")},
                                                ${variablesOf(ACQUIRER_NAMES).at(-1)} (run once, then remove them; docs/operations.md)`;

function text(options: Options, name: string): string | undefined {
  const value = options[name];
  return typeof value === "string" && value.trim() !== "" ? value : undefined;
}

function requiredText(options: Options, name: string): string {
  const value = text(options, name);
  if (!value) throw new z.ZodError([{ code: "custom", path: [name], message: `--${name} is required`, input: undefined }]);
  return value;
}

/** The credentials of --credentials-file (a JSON object) and --credential key=value, or undefined when neither is given. */
function credentialsInput(options: Options): Record<string, string> | undefined {
  const file = text(options, "credentials-file");
  const pairs = ([] as string[]).concat((options.credential as string[] | string | undefined) ?? []);
  if (!file && pairs.length === 0) return undefined;
  const fromFile = file ? z.record(z.string(), z.string()).parse(JSON.parse(readFileSync(file, "utf8"))) : {};
  const fromPairs = Object.fromEntries(
    pairs.map((pair) => {
      const separator = pair.indexOf("=");
      if (separator <= 0) throw new z.ZodError([{ code: "custom", path: ["credential"], message: "must be key=value", input: undefined }]);
      return [pair.slice(0, separator), pair.slice(separator + 1)];
    }),
  );
  return { ...fromFile, ...fromPairs };
}

function bins(options: Options): Record<string, string> | undefined {
  const entries = (["visa", "mastercard", "amex"] as const).flatMap((scheme) => {
    const bin = text(options, `bin-${scheme}`);
    return bin ? [[scheme, bin] as const] : [];
  });
  return entries.length > 0 ? Object.fromEntries(entries) : undefined;
}

/** The account fields given as options (only those given: an update changes nothing else). */
function fieldOptions(options: Options): Record<string, unknown> {
  const fields: Record<string, unknown> = {
    name: text(options, "name"),
    acquirerMerchantId: text(options, "acquirer-merchant-id"),
    acquirerBins: bins(options),
    mcc: text(options, "mcc"),
    merchantName: text(options, "merchant-name"),
    country: text(options, "country"),
    descriptor: text(options, "descriptor"),
    currencies: text(options, "currencies"),
    mode: text(options, "mode"),
    enabled: options.disabled === true ? false : options.enabled === true ? true : undefined,
    credentials: credentialsInput(options),
  };
  return Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined));
}

async function merchantMustExist(merchantId: string): Promise<void> {
  if (!(await db().merchant.findUnique({ where: { id: merchantId }, select: { id: true } })))
    throw new Error(`no merchant with id ${merchantId}`);
}

function describe(account: AcquirerAccountView): string {
  return [
    `${account.id}  ${account.processor}  “${account.name}”  ${account.enabled ? "enabled" : "disabled"}  ${account.mode}`,
    `    acquirer merchant id ${account.acquirerMerchantId}  MCC ${account.mcc}  ${account.merchantName} (${account.country})  descriptor “${account.descriptor}”`,
    `    currencies ${describeCurrencies(account)}  BINs ${
      Object.entries(account.acquirerBins)
        .map(([scheme, bin]) => `${scheme} ${bin}`)
        .join(", ") || "none"
    }`,
    `    credentials fingerprint ${account.credentialsFingerprint}, set ${account.credentialsSetAt.toISOString()}`,
  ].join("\n");
}

function data(account: AcquirerAccountView) {
  return { ...auditFields(account), id: account.id, credentialsSetAt: account.credentialsSetAt.toISOString() };
}

async function change(options: Options, input: Record<string, unknown>, verb: string): Promise<CliResult> {
  const merchantId = requiredText(options, "merchant");
  const accountId = requiredText(options, "account");
  const { before, after, credentialsChanged } = await db().$transaction(async (tx) => {
    const changed = await updateAcquirerAccount({ merchantId, accountId, input, tx });
    await recordAuditEntry(tx, {
      merchantId,
      userId: null,
      action: changed.credentialsChanged ? "acquirer_account.credentials_changed" : "acquirer_account.updated",
      target: accountId,
      details: { by: "operator (CLI)", before: auditFields(changed.before), after: auditFields(changed.after) },
    });
    return changed;
  });
  return {
    text: `${verb} (credentials ${credentialsChanged ? "replaced" : "unchanged"}):\n${describe(after)}`,
    data: { before: data(before), after: data(after) },
  };
}

export const ACCOUNT_COMMANDS: Record<string, CommandHandler> = {
  "accounts list": async (options) => {
    const merchantId = requiredText(options, "merchant");
    await merchantMustExist(merchantId);
    const accounts = await listAcquirerAccounts({ merchantId });
    return { text: accounts.map(describe).join("\n") || "no acquirer accounts", data: accounts.map(data) };
  },
  "accounts add": async (options) => {
    const merchantId = requiredText(options, "merchant");
    await merchantMustExist(merchantId);
    const processor = requiredText(options, "processor");
    if (!isAcquirerName(processor))
      throw new z.ZodError([{ code: "custom", path: ["processor"], message: `must be ${acquirerNameList()}`, input: processor }]);
    const input = { processor, ...fieldOptions(options) };
    const account = await db().$transaction(async (tx) => {
      const created = await createAcquirerAccount({ merchantId, input, tx });
      await recordAuditEntry(tx, {
        merchantId,
        userId: null,
        action: "acquirer_account.created",
        target: created.id,
        details: { by: "operator (CLI)", after: auditFields(created) },
      });
      return created;
    });
    return { text: `Acquirer account added:\n${describe(account)}`, data: data(account) };
  },
  "accounts update": (options) => change(options, fieldOptions(options), "Acquirer account updated"),
  "accounts disable": (options) => change(options, { enabled: false }, "Acquirer account disabled"),
  "accounts test": async (options) => {
    const merchantId = requiredText(options, "merchant");
    const result = await testAcquirerConnection({ merchantId, accountId: requiredText(options, "account") });
    const details = Object.entries(result.details ?? {}).map(([key, value]) => `    ${key}: ${value}`);
    return {
      text: [
        `${result.ok ? "OK" : "FAILED"}: ${result.message}`,
        ...details,
        ...result.mismatches.map((line) => `    differs: ${line}`),
      ].join("\n"),
      data: result,
    };
  },
  "accounts import-env": async (options) => {
    const mode = accountModeSchema.parse(text(options, "mode") ?? (config().isProduction ? "live" : "test"));
    const results = await importLegacyAccounts({
      fields: {
        mcc: requiredText(options, "mcc"),
        merchantName: requiredText(options, "merchant-name"),
        country: requiredText(options, "country"),
        descriptor: requiredText(options, "descriptor"),
        mode,
        acquirerBins: bins(options),
        acquirerMerchantIds: Object.fromEntries(MERCHANT_ID_OPTIONS.map(({ name, option }) => [name, text(options, option)])),
      },
    });
    const lines = results.flatMap((result) => [
      `${result.processor}: ${result.created.length} merchant(s) given an account, ${result.skipped.length} already had one`,
      ...result.created.map(
        (created) =>
          `    ${created.merchantId}: account ${created.accountId} (${created.payments} payment(s), ${created.operations} operation(s) recorded on it)`,
      ),
    ]);
    return {
      text: (lines.length > 0
        ? lines
        : [
            `neither ${variablesOf(IMPORTABLE).join(" nor ")} credentials are set: nothing to import (${variablesOf(RETIRED).join(", ")} credentials of earlier versions cannot be imported: docs/operations.md)`,
          ]
      ).join("\n"),
      data: results,
    };
  },
};
