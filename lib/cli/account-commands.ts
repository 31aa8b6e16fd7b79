// `accounts ...`: the operator's commands for merchants' acquirer accounts (docs/operations.md).
// Credentials come from a JSON file (--credentials-file <file>, mode 0600, deleted after), from
// standard input (--credentials-file -: the JSON piped in, or each field asked at a prompt without
// echo in a terminal); --credential key=value takes only the fields that are not secrets (a merchant
// id): a secret on the command line shows in ps and in shell history (decision 0160). Credentials are
// never printed back, only their fingerprint.
import { readFileSync } from "node:fs";
import { z } from "zod";
import { db } from "../db";
import { recordAuditEntry } from "../audit/audit";
import { credentialFieldsOf } from "../acquirers/credentials";
import { platformKeyOf, platformsOf, platformView } from "../acquirers/platforms";
import { describeCurrencies, accountModeSchema } from "../routing/accounts/account-input";
import { auditFields, type AcquirerAccountView } from "../routing/accounts/account-view";
import { createAcquirerAccount } from "../routing/accounts/create-acquirer-account";
import { updateAcquirerAccount } from "../routing/accounts/update-acquirer-account";
import { listAcquirerAccounts } from "../routing/accounts/list-acquirer-accounts";
import { testAcquirerConnection } from "../routing/accounts/test-acquirer-connection";
import { importLegacyAccounts } from "../routing/accounts/import-legacy-accounts";
import { setReportingCredentials } from "../routing/accounts/set-reporting-credentials";
import { reportingRulesOnly } from "../routing/accounts/reporting-access";
import { testReportingConnection } from "../routing/accounts/test-reporting-connection";
import { reportingOf } from "../acquirers/reporting";
import type { CredentialField } from "../acquirers/contract";
import { ACQUIRERS } from "../acquirers";
import { ACQUIRER_NAMES, acquirerNameList, isAcquirerName, type AcquirerName } from "../acquirers/names";
import { config } from "../env";
import type { CliCommand, CliOption, CliResult, Options } from "./cli-command";
import { CliUsageError } from "./cli-command";
import { promptHidden, promptVisible, readStandardInput, standardInputIsTerminal } from "./read-secret";

function text(options: Options, name: string): string | undefined {
  const value = options[name];
  return typeof value === "string" && value.trim() !== "" ? value : undefined;
}

function requiredText(options: Options, name: string): string {
  const value = text(options, name);
  if (!value) throw new z.ZodError([{ code: "custom", path: [name], message: `--${name} is required`, input: undefined }]);
  return value;
}

/** Every processor's platforms (decision 0193), each with its credential fields. */
const PLATFORM_FIELDS = ACQUIRER_NAMES.flatMap((processor) =>
  platformsOf(processor).map((platform) => ({ processor, platform, fields: credentialFieldsOf(processor, platform.key) })),
);
/** The keys of every processor's (platform's) credentials that are secrets (never taken from the command line). */
const SECRET_KEYS = new Set(PLATFORM_FIELDS.flatMap(({ fields }) => fields.filter((field) => field.secret).map((field) => field.key)));

/** Which account the credentials are for: its processor and its platform (null: the processor's first). */
interface AccountKind {
  processor: AcquirerName;
  platform: string | null;
}

function credentialPairs(options: Options): Record<string, string> {
  const pairs = ([] as string[]).concat((options.credential as string[] | string | undefined) ?? []);
  return Object.fromEntries(
    pairs.map((pair) => {
      const separator = pair.indexOf("=");
      if (separator <= 0) throw new z.ZodError([{ code: "custom", path: ["credential"], message: "must be key=value", input: undefined }]);
      const key = pair.slice(0, separator);
      if (SECRET_KEYS.has(key)) {
        throw new CliUsageError(
          `--credential ${key}=… is not accepted: ${key} is a secret, and a command line shows in ps and in shell history. ` +
            `Put the credentials in a JSON file (chmod 600) and pass --credentials-file <file>, or pipe the JSON in with --credentials-file -.`,
        );
      }
      return [key, pair.slice(separator + 1)];
    }),
  );
}

/** Each credential field of the account's processor and platform, asked at the terminal (secrets without echo). */
function promptCredentials({ processor, platform }: AccountKind): Promise<Record<string, string>> {
  return promptFields(`${processor}${platform ? ` (${platformView(processor, platform).label})` : ""} credentials`, credentialFieldsOf(processor, platform));
}

/** Each of `fields`, asked at the terminal (secrets without echo). */
async function promptFields(title: string, fields: readonly CredentialField[]): Promise<Record<string, string>> {
  const answers: Record<string, string> = {};
  process.stderr.write(`${title} (an empty answer leaves an optional field out):\n`);
  for (const field of fields) {
    if (field.multiline) {
      process.stderr.write(`${field.label}${field.optional ? " (optional)" : ""}: skipped at the prompt; give a multi-line value in --credentials-file\n`);
      continue;
    }
    const question = `  ${field.label}${field.optional ? " (optional)" : ""}: `;
    const answer = (field.secret ? await promptHidden(question) : await promptVisible(question)).trim();
    if (answer) answers[field.key] = answer;
  }
  return answers;
}

/**
 * The credentials of --credentials-file (a JSON object, from a file or standard input) and the
 * non-secret --credential key=value pairs, or undefined when neither is given.
 */
async function credentialsInput(options: Options, processor: () => Promise<AccountKind>): Promise<Record<string, string> | undefined> {
  const file = text(options, "credentials-file");
  const fromPairs = credentialPairs(options);
  if (!file && Object.keys(fromPairs).length === 0) return undefined;
  let fromFile: Record<string, string> = {};
  if (file === "-") {
    fromFile = standardInputIsTerminal() ? await promptCredentials(await processor()) : parseCredentialsJson(await readStandardInput(), "standard input");
  } else if (file) {
    fromFile = parseCredentialsJson(readFileSync(file, "utf8"), file);
  }
  return { ...fromFile, ...fromPairs };
}

function parseCredentialsJson(text: string, source: string): Record<string, string> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    // Never the parser's message: it would quote the secret next to the fault.
    throw new CliUsageError(`--credentials-file: ${source} is not a JSON object such as {"apiKey":"…"}`);
  }
  return z.record(z.string(), z.string(), { error: "must be a JSON object of strings" }).parse(parsed);
}

/**
 * An account's reporting API credentials (issue 40), from --credentials-file only: a JSON file, or
 * `-` for the JSON piped in (each field asked without echo in a terminal). Never from the command line.
 */
async function reportingCredentialsInput(options: Options, account: AccountKind): Promise<Record<string, string>> {
  const file = requiredText(options, "credentials-file");
  const reporting = reportingOf(account.processor);
  if (!reporting) throw new Error(`${account.processor} publishes no reporting API (disputes, settlements): nothing to set (docs/acquirers.md)`);
  if (file !== "-") return parseCredentialsJson(readFileSync(file, "utf8"), file);
  return standardInputIsTerminal()
    ? promptFields(`${reporting.label} credentials`, reporting.credentials.fields)
    : parseCredentialsJson(await readStandardInput(), "standard input");
}

/** `accounts test`'s lines for the reporting API, when the account has its credentials. */
async function reportingCheckLines(merchantId: string, accountId: string): Promise<{ lines: string[]; ok: boolean; data?: unknown }> {
  const account = await db().acquirerAccount.findFirst({
    where: { id: accountId, merchantId },
    select: { processor: true, reportingCredentialsFingerprint: true },
  });
  const reporting = account && isAcquirerName(account.processor) ? reportingOf(account.processor) : undefined;
  if (!reporting || !account?.reportingCredentialsFingerprint) return { lines: [], ok: true };
  const check = await testReportingConnection({ merchantId, accountId, outsideTheService: true });
  if ("checked" in check) {
    // Not the account's failure: this process is not the service (decision 0210). Not a failure of the command either.
    return {
      lines: [
        `NOT CHECKED: ${reporting.label}: cannot be checked from this CLI: ${check.endpointVariable} is not set here` +
          (check.mode === "test" ? ", and the service's test accounts use the built-in sandbox running inside the service" : "") +
          `. Check it with "Test reporting API" ` +
          `in the back office (Settings → Acquirer accounts), or set ${check.endpointVariable} for this command ` +
          `(npm run sandbox prints it); nothing was recorded on the account`,
      ],
      ok: true,
      data: check,
    };
  }
  return { lines: [`${check.ok ? "OK" : "FAILED"}: ${reporting.label}: ${check.message}`], ok: check.ok, data: check };
}

function bins(options: Options): Record<string, string> | undefined {
  const entries = (["visa", "mastercard", "amex"] as const).flatMap((scheme) => {
    const bin = text(options, `bin-${scheme}`);
    return bin ? [[scheme, bin] as const] : [];
  });
  return entries.length > 0 ? Object.fromEntries(entries) : undefined;
}

/** The account fields given as options (only those given: an update changes nothing else). */
async function fieldOptions(options: Options, processor: () => Promise<AccountKind>): Promise<Record<string, unknown>> {
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
    credentials: await credentialsInput(options, processor),
  };
  return Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined));
}

async function merchantMustExist(merchantId: string): Promise<void> {
  if (!(await db().merchant.findUnique({ where: { id: merchantId }, select: { id: true } })))
    throw new Error(`no merchant with id ${merchantId}`);
}

function describe(account: AcquirerAccountView): string {
  return [
    `${account.id}  ${account.processor}${account.platform ? ` (${platformView(account.processor, account.platform).label})` : ""}  “${account.name}”  ${account.enabled ? "enabled" : "disabled"}  ${account.mode}`,
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

const MERCHANT: CliOption = { type: "string", value: "<merchantid>", required: true };
const ACCOUNT: CliOption = { type: "string", value: "<accountid>", required: true };
const BINS: Record<string, CliOption> = {
  "bin-visa": { type: "string", value: "<bin>" },
  "bin-mastercard": { type: "string", value: "<bin>" },
  "bin-amex": { type: "string", value: "<bin>" },
};
/** The account's fields, as `accounts add` takes them (`accounts update` takes each as optional). */
const ACCOUNT_FIELDS: Record<string, CliOption> = {
  name: { type: "string", value: "<label>", required: true },
  "acquirer-merchant-id": { type: "string", value: "<id>", required: true },
  mcc: { type: "string", value: "<4 digits>", required: true },
  "merchant-name": { type: "string", value: "<name>", required: true },
  country: { type: "string", value: "<CC>", required: true },
  descriptor: { type: "string", value: "<text>", required: true },
  currencies: { type: "string", value: "<EUR,DKK|any>", required: true },
  mode: { type: "string", value: "test|live" },
  ...BINS,
  "credentials-file": { type: "string", value: "<file>|-" },
  credential: { type: "string", multiple: true, value: "<key>=<value>", hidden: true },
};
const optional = (fields: Record<string, CliOption>) => Object.fromEntries(Object.entries(fields).map(([name, option]) => [name, { ...option, required: false }]));

const CREDENTIALS_HELP = `credentials: --credentials-file <file> (a JSON object, chmod 600) or --credentials-file -
(the JSON piped in on standard input, or each field asked at a prompt in a terminal).
--credential <key>=<value> takes the fields that are not secrets only (a secret on the command line
shows in ps and in shell history).
Keys: ${PLATFORM_FIELDS.map(
  ({ processor, platform, fields }) =>
    `${processor}${platformsOf(processor).length > 1 ? ` --platform ${platform.name}` : ""}: ${fields.map((field) => `${field.key}${field.secret ? " (secret)" : ""}${field.optional ? " (optional)" : ""}`).join(", ")}`,
).join(";\n")}`;

async function processorOfAccount(options: Options): Promise<AccountKind> {
  const account = await db().acquirerAccount.findFirst({
    where: { id: requiredText(options, "account"), merchantId: requiredText(options, "merchant") },
    select: { processor: true, platform: true },
  });
  if (!account || !isAcquirerName(account.processor)) throw new Error(`no acquirer account ${requiredText(options, "account")} of merchant ${requiredText(options, "merchant")}`);
  return { processor: account.processor, platform: account.platform };
}

/** The reporting APIs' credential keys, per processor that publishes one. */
const REPORTING_KEYS_HELP = `Keys: ${ACQUIRER_NAMES.flatMap((processor) => {
  const reporting = reportingOf(processor);
  return reporting
    ? [`${processor} (${reporting.label}): ${reporting.credentials.fields.map((field) => `${field.key}${field.secret ? " (secret)" : ""}`).join(", ")}`]
    : [];
}).join("; ")}`;

/** The platforms `--platform` takes: those of the processors that have more than one. */
const PLATFORM_NAMES = [...new Set(PLATFORM_FIELDS.filter(({ processor }) => platformsOf(processor).length > 1).map(({ platform }) => platform.name))];

export const ACCOUNT_COMMANDS: CliCommand[] = [
  {
    words: "accounts list",
    options: { merchant: MERCHANT },
    description: "a merchant's acquirer accounts (credentials are never shown: their fingerprint)",
    run: async (options) => {
      const merchantId = requiredText(options, "merchant");
      await merchantMustExist(merchantId);
      const accounts = await listAcquirerAccounts({ merchantId });
      return { text: accounts.map(describe).join("\n") || "no acquirer accounts", data: accounts.map(data) };
    },
  },
  {
    words: "accounts add",
    options: {
      merchant: MERCHANT,
      processor: { type: "string", value: ACQUIRER_NAMES.join("|"), required: true },
      // Which of the processor's APIs (decision 0193); its first when absent. Named under "Keys" in
      // the description rather than in the synopsis: it means something for bambora only.
      platform: { type: "string", value: PLATFORM_NAMES.join("|"), hidden: true },
      ...ACCOUNT_FIELDS,
      disabled: { type: "boolean" },
    },
    description: `add an acquirer account to a merchant (audited)\n${CREDENTIALS_HELP}`,
    run: async (options) => {
      const merchantId = requiredText(options, "merchant");
      await merchantMustExist(merchantId);
      const processor = requiredText(options, "processor");
      if (!isAcquirerName(processor))
        throw new z.ZodError([{ code: "custom", path: ["processor"], message: `must be ${acquirerNameList()}`, input: processor }]);
      const platform = text(options, "platform");
      const kind = async (): Promise<AccountKind> => {
        try {
          return { processor, platform: platformKeyOf(processor, platform) };
        } catch (error) {
          throw new z.ZodError([{ code: "custom", path: ["platform"], message: error instanceof Error ? error.message : String(error), input: platform }]);
        }
      };
      const input = { processor, ...(platform ? { platform } : {}), ...(await fieldOptions(options, kind)) };
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
  },
  {
    words: "accounts update",
    options: { merchant: MERCHANT, account: ACCOUNT, ...optional(ACCOUNT_FIELDS), enabled: { type: "boolean" }, disabled: { type: "boolean" } },
    description: "change what is given (any option of add but --processor), nothing else; credentials as for add",
    run: async (options) => change(options, await fieldOptions(options, () => processorOfAccount(options)), "Acquirer account updated"),
  },
  {
    words: "accounts disable",
    options: { merchant: MERCHANT, account: ACCOUNT },
    description: "the account takes no new payments; its payments' captures, refunds and voids still go to it",
    run: (options) => change(options, { enabled: false }, "Acquirer account disabled"),
  },
  {
    words: "accounts test",
    options: { merchant: MERCHANT, account: ACCOUNT },
    description: `one harmless authenticated call to the acquirer with the account's credentials, and one to its
reporting API (disputes, settlements) when the account has reporting credentials: a line each, OK or
FAILED; exits 1 when either fails (needs the acquirer's *_BASE_URL or *_TEST_BASE_URL, and for the
reporting API its own endpoint variable: the CLI cannot reach a service's in-process sandboxes;
locally, test from the back office). A test account's reporting API with no endpoint variable set
here is NOT CHECKED (the service runs its sandbox): said so, not a failure, nothing recorded`,
    run: async (options) => {
      const merchantId = requiredText(options, "merchant");
      const accountId = requiredText(options, "account");
      const result = await testAcquirerConnection({ merchantId, accountId });
      const details = Object.entries(result.details ?? {}).map(([key, value]) => `    ${key}: ${value}`);
      const reporting = await reportingCheckLines(merchantId, accountId);
      return {
        text: [
          `${result.ok ? "OK" : "FAILED"}: ${result.message}`,
          ...details,
          ...result.mismatches.map((line) => `    differs: ${line}`),
          ...reporting.lines,
        ].join("\n"),
        data: reporting.data === undefined ? result : { ...result, reporting: reporting.data },
        exitCode: result.ok && reporting.ok ? 0 : 1,
      };
    },
  },
  {
    words: "accounts set-reporting-credentials",
    options: { merchant: MERCHANT, account: ACCOUNT, "credentials-file": { type: "string", value: "<file>|-", required: true } },
    description: `store the account's reporting API credentials (disputes and settlements), sealed and audited; the
pollers use them from their next run. --credentials-file <file> (a JSON object, chmod 600) or - (piped
in, or asked at a prompt in a terminal); never on the command line. Check them with accounts test.
${REPORTING_KEYS_HELP}`,
    run: async (options) => {
      const merchantId = requiredText(options, "merchant");
      const accountId = requiredText(options, "account");
      const credentials = await reportingCredentialsInput(options, await processorOfAccount(options));
      // Stored with the module's rules only: this process calls nothing, and a test account's endpoint
      // may be a service's in-process sandbox the CLI cannot reach (accounts test checks them).
      const { fingerprint } = await setReportingCredentials({ merchantId, accountId, credentials, accessFor: reportingRulesOnly });
      return {
        text: `Reporting API credentials stored for account ${accountId} (fingerprint ${fingerprint}); run accounts test to check them`,
        data: { id: accountId, reportingCredentialsFingerprint: fingerprint },
      };
    },
  },
  {
    words: "accounts import-env",
    options: {
      mcc: { type: "string", value: "<4 digits>", required: true },
      "merchant-name": { type: "string", value: "<name>", required: true },
      country: { type: "string", value: "<CC>", required: true },
      descriptor: { type: "string", value: "<text>", required: true },
      mode: { type: "string", value: "test|live" },
      ...Object.fromEntries(MERCHANT_ID_OPTIONS.map(({ option, form }) => [option, { type: "string", value: `<${form}>` } satisfies CliOption])),
      ...BINS,
    },
    description: `upgrade: every merchant gets accounts built from ${variablesOf(ACQUIRER_NAMES).join(", ")} (run once, then
remove them; docs/operations.md)`,
    run: async (options) => {
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
  },
];
