// The operator CLI's commands, one table (lib/cli/cli-command.ts: the parser and the usage text come
// from it); scripts/cli.ts runs the one named on the command line and prints its result.
import { z } from "zod";
import { db } from "../db";
import { createMerchant } from "../merchants/create-merchant";
import { createApiKey } from "../api-keys/create-api-key";
import { createUser } from "../users/create-user";
import { formatRunsTable } from "@cps/inngest-embedded";
import { listRuns } from "../inngest/list-runs";
import { reconcileTimedOutAuthorizations } from "../routing/reconcile-timed-out-authorizations";
import { rotateCardDataKey } from "./rotate-card-data-key";
import { resealTotpSecrets } from "../users/reseal-totp-secrets";
import { resetUserPassword } from "../users/reset-user-password";
import { recordAuditEntry } from "../audit/audit";
import { finishAfterOperatorSettlement } from "../cardholder/finish-stuck-payments";
import {
  acknowledgeLateAnswer,
  listOperatorCases,
  settleOperationByOperator,
  type OperatorAuditEntry,
} from "../payments/settle-operation-by-operator";
import type { Tx } from "../db";
import { resealSigningSecrets } from "../notifications/signing-secrets";
import { API_KEY_SCOPES, DEFAULT_NEW_KEY_SCOPES, parseScopeList } from "../api-keys/api-key-scopes";
import { setPayoutLimit } from "../payments/set-payout-limit";
import { resealAcquirerCredentials } from "../routing/accounts/reseal-acquirer-credentials";
import { ACCOUNT_COMMANDS } from "./account-commands";
import { WEBHOOK_COMMANDS } from "./webhook-commands";
import { config } from "../env";
import { modeSchema } from "../mode";
import { promptHidden, readStandardInput, standardInputIsTerminal } from "./read-secret";
import { CliUsageError, parseCommandLine, usageText, type CliCommand, type CliResult, type Options } from "./cli-command";

export { CliUsageError, type CliResult } from "./cli-command";

/** The audit entry of an operator's settlement from the CLI (no back-office user: shown as "system"). */
const cliAudit = (tx: Tx, entry: OperatorAuditEntry) =>
  recordAuditEntry(tx, { merchantId: entry.merchantId, userId: null, action: "operation.settled_by_operator", target: entry.paymentId, details: { ...entry.details } });

function required(options: Options, name: string): string {
  const value = options[name];
  if (typeof value !== "string" || value.trim() === "") throw new CliUsageError(`--${name} is required`);
  return value.trim();
}

/**
 * A new user's password: typed twice at a prompt without echo when standard input is a terminal,
 * else the first line of standard input (`printf '%s\n' "$PASSWORD" | npm run cli -- user create ...`).
 */
async function readPassword(): Promise<string> {
  if (standardInputIsTerminal()) {
    const first = await promptHidden("Password for the new user: ");
    if ((await promptHidden("The same password again: ")) !== first) throw new CliUsageError("the two passwords are not the same");
    return first;
  }
  const line = (await readStandardInput()).split(/\r?\n/)[0] ?? "";
  if (!line) throw new CliUsageError("no password on standard input (or run it in a terminal to be asked)");
  return line;
}

/** --scopes payments,read; default everything but payouts (asked for by name). */
function scopesOption(options: Options) {
  return typeof options.scopes === "string" ? parseScopeList(options.scopes) : DEFAULT_NEW_KEY_SCOPES;
}

async function merchantMustExist(merchantId: string): Promise<void> {
  const merchant = await db().merchant.findUnique({ where: { id: merchantId }, select: { id: true } });
  if (!merchant) throw new Error(`no merchant with id ${merchantId}`);
}

const PASSWORD_REFUSED =
  "--password is not accepted: a command line shows in ps and in shell history. Type the password at the prompt, or pipe it on standard input.";

/** The commands of this module; the accounts and webhooks commands are in their own modules. */
const COMMANDS: CliCommand[] = [
  {
    words: "merchant create",
    options: { name: { type: "string", value: "<name>", required: true }, scopes: { type: "string", value: "<list>" } },
    description: `create a merchant; prints its merchantid, a test-mode and a live-mode API key (cps_test_…, cps_live_…)
and the notification signing secret`,
    run: async (options) => {
    const name = z.string().trim().min(1).max(100).parse(required(options, "name"));
    const { merchant, apiKeys } = await createMerchant({ name, apiKeyModes: ["test", "live"], apiKeyScopes: scopesOption(options) });
    return {
      // The signing secret is printed too: a merchant set up from the CLI must be able to verify
      // its first notification without a back-office visit (it stays readable in Settings → API keys).
      text:
        `Merchant ${merchant.name}\n  merchantid  ${merchant.id}\n  Test API key  ${apiKeys.test}   (test mode: sandboxes and test cards; shown once)\n` +
        `  Live API key  ${apiKeys.live}   (live mode: real cards and money; shown once; store it now)\n` +
        `  Live notification signing secret  ${merchant.notificationSecret}   (verifies live notifications; also in the back office, Settings → API-key)\n` +
        `  Test notification signing secret  ${merchant.testNotificationSecret}   (verifies test notifications only)`,
      data: {
        merchantid: merchant.id,
        name: merchant.name,
        // The key of the service's default mode (live in production, test locally), as before modes.
        apikey: apiKeys[config().defaultMode],
        testapikey: apiKeys.test,
        liveapikey: apiKeys.live,
        // Each mode signs with its own secret; notificationsecret is the live one, as before modes had their own.
        notificationsecret: merchant.notificationSecret,
        testnotificationsecret: merchant.testNotificationSecret,
      },
    };
  },
  },
  {
    words: "merchant list",
    options: {},
    description: `list merchants`,
    run: async () => {
    const merchants = await db().merchant.findMany({ orderBy: { createdAt: "asc" }, select: { id: true, name: true, createdAt: true } });
    return {
      text: merchants.map((m) => `${m.id}  ${m.name}  (created ${m.createdAt.toISOString()})`).join("\n") || "no merchants",
      data: merchants.map((m) => ({ merchantid: m.id, name: m.name, created: m.createdAt.toISOString() })),
    };
  },
  },
  {
    words: "apikey create",
    options: { merchant: { type: "string", value: "<merchantid>", required: true }, mode: { type: "string", value: "test|live" }, name: { type: "string", value: "<name>" }, scopes: { type: "string", value: "<list>" } },
    description: `create an API key for a merchant (shown once). Mode: default live in production, test locally.
Scopes, comma separated: ${API_KEY_SCOPES.join(", ")} (default: payments,follow-ups,read)`,
    run: async (options) => {
    const merchantId = required(options, "merchant");
    await merchantMustExist(merchantId);
    const name = typeof options.name === "string" && options.name.trim() ? options.name.trim() : "CLI key";
    const mode = modeSchema.parse(typeof options.mode === "string" ? options.mode : config().defaultMode);
    const { apiKey, record } = await createApiKey({ merchantId, name, scopes: scopesOption(options), mode });
    return {
      text: `${mode === "test" ? "Test" : "Live"} API key for ${merchantId}: ${apiKey}   (shown once; store it now; scopes: ${record.scopes.join(", ")})`,
      data: {
        merchantid: merchantId,
        apikey: apiKey,
        id: record.id,
        prefix: record.prefix,
        name: record.name,
        scopes: record.scopes,
        mode: record.mode,
      },
    };
  },
  },
  // Payouts (review 3, M7): per currency, what the merchant's keys may pay out; audited as the operator.
  {
    words: "payout-limits set",
    options: { merchant: { type: "string", value: "<merchantid>", required: true }, currency: { type: "string", value: "<ISO code>", required: true }, "per-payout": { type: "string", value: "<minor units>", required: true }, "per-day": { type: "string", value: "<minor units>", required: true } },
    description: `what the merchant's keys may pay out (no limit for a currency: no payouts)`,
    run: async (options) => {
    const merchantId = required(options, "merchant");
    await merchantMustExist(merchantId);
    const limit = await setPayoutLimit({
      merchantId,
      actorUserId: null,
      input: { currency: required(options, "currency"), perPayout: required(options, "per-payout"), perDay: required(options, "per-day") },
    });
    return {
      text: `Payout limits for ${merchantId} in ${limit.currency}: ${limit.perPayout} per payout, ${limit.perDay} per 24 hours (minor units)`,
      data: { merchantid: merchantId, currency: limit.currency, perpayout: Number(limit.perPayout), perday: Number(limit.perDay) },
    };
  },
  },
  {
    words: "user create",
    options: { merchant: { type: "string", value: "<merchantid>", required: true }, email: { type: "string", value: "<email>", required: true }, name: { type: "string", value: "<name>", required: true }, role: { type: "string", value: "owner|developer|viewer" }, password: { type: "string", refused: PASSWORD_REFUSED } },
    description: `create a back-office user; the password (12+ characters) is typed at a prompt or read from standard
input, never an argument: printf '%s\\n' "$PASSWORD" | … user create …; recorded in the audit log`,
    run: async (options) => {
    const merchantId = required(options, "merchant");
    await merchantMustExist(merchantId);
    const role = (typeof options.role === "string" ? options.role : "owner").toUpperCase();
    const email = required(options, "email");
    const name = required(options, "name");
    const password = await readPassword();
    const user = await db().$transaction(async (tx) => {
      const created = await createUser({ merchantId, email, name, password, role: role as "OWNER" | "DEVELOPER" | "VIEWER", tx });
      // The operator's user creations are audited like an owner's (security review 3, L8).
      await recordAuditEntry(tx, { merchantId, userId: null, action: "operator.user_created", target: created.id, details: { email: created.email, role: created.role } });
      return created;
    });
    return {
      text: `User ${user.email} (${user.role.toLowerCase()}) created for merchant ${merchantId}`,
      data: { id: user.id, email: user.email, name: user.name, role: user.role.toLowerCase(), merchantid: merchantId },
    };
  },
  },
  // For a user locked out of the back office with no owner to reset them (or the only owner).
  {
    words: "user reset-password",
    args: ["<email>"],
    options: {},
    description: `give a back-office user a new temporary password (printed once); their sessions end; recorded in
the merchant's audit log`,
    run: async (options, args) => {
    const email = z
      .string()
      .trim()
      .toLowerCase()
      .pipe(z.email("must be an email address"))
      .parse(args[0]);
    const user = await db().user.findUnique({ where: { email }, select: { id: true, merchantId: true } });
    if (!user) throw new Error(`no back-office user with email ${email}`);
    const { temporaryPassword } = await db().$transaction(async (tx) => {
      const reset = await resetUserPassword({ tx, userId: user.id });
      await recordAuditEntry(tx, {
        merchantId: user.merchantId,
        userId: null,
        action: "operator.password_reset",
        target: user.id,
        details: { email },
      });
      return reset;
    });
    return {
      text: `Temporary password for ${email}: ${temporaryPassword}   (shown once; hand it over securely, then they change it under Your account)
Their open sessions were signed out.`,
      data: { email, temporarypassword: temporaryPassword, merchantid: user.merchantId },
    };
  },
  },
  // Background work (Inngest): runs of the embedded executor.
  {
    words: "runs list",
    options: { limit: { type: "string", value: "<n>" } },
    description: `recent background runs (embedded executor): status, attempts, next wake-up, last error`,
    run: async (options) => {
    const runs = await listRuns({ limit: typeof options.limit === "string" ? options.limit : undefined });
    return {
      text: formatRunsTable(runs),
      data: runs.map((run) => ({
        ...run,
        startedAt: run.startedAt.toISOString(),
        endedAt: run.endedAt?.toISOString() ?? null,
        nextWakeAt: run.nextWakeAt?.toISOString() ?? null,
      })),
    };
  },
  },
  // Unknown outcomes left for an operator (docs/operations.md, "Unknown outcomes").
  {
    words: "operations waiting",
    options: {},
    description: `operations waiting for an operator (outcome unknown, no look-up settled them) and settled ones an
acquirer later contradicted (docs/operations.md)`,
    run: async () => {
    const cases = await listOperatorCases();
    const line = (entry: (typeof cases)[number]) =>
      entry.status === "pending"
        ? `${entry.id}  ${entry.type} ${entry.amount} ${entry.currency} at ${entry.processor ?? "-"}  payment ${entry.paymentId}  waiting since ${entry.operatorAlertedAt?.toISOString()}  ${entry.errorMessage ?? ""}`
        : `${entry.id}  ${entry.type} ${entry.amount} ${entry.currency} at ${entry.processor ?? "-"}  payment ${entry.paymentId}  CONTRADICTED: ${entry.lateAnswer ?? ""}`;
    return {
      text: cases.length === 0 ? "no operation waits for an operator" : cases.map(line).join("\n"),
      data: cases.map((entry) => ({
        operationid: entry.id,
        type: entry.type,
        status: entry.status,
        amount: entry.amount.toString(),
        currency: entry.currency,
        processor: entry.processor,
        paymentid: entry.paymentId,
        merchantid: entry.payment.merchantId,
        waitingsince: entry.operatorAlertedAt?.toISOString() ?? null,
        lateanswer: entry.lateAnswer,
        detail: entry.errorMessage,
      })),
    };
  },
  },
  {
    words: "operations settle",
    args: ["<operationid>"],
    options: { outcome: { type: "string", value: "approved|declined", required: true }, reference: { type: "string", value: "<acquirer's id>" }, reason: { type: "string", value: '"<what you checked>"', required: true } },
    description: `record the acquirer's answer to an operation waiting for an operator: totals, merchant notification
and audit entry in one transaction`,
    run: async (options, args) => {
    const input = z
      .object({
        operationId: z.string().regex(/^[A-Za-z0-9]{1,32}$/, "the operation id (npm run cli -- operations waiting)"),
        outcome: z.enum(["approved", "declined"], { error: "--outcome must be approved or declined" }),
        reference: z.string().trim().max(200).optional(),
        reason: z.string({ error: "--reason is required" }).trim().min(1, "--reason is required").max(500),
      })
      .parse({ operationId: args[0], outcome: options.outcome, reference: options.reference, reason: options.reason });
    const settled = await settleOperationByOperator({
      ...input,
      by: { userId: null, label: "the operator CLI" },
      audit: cliAudit,
    });
    const finished = await finishAfterOperatorSettlement(settled);
    return {
      text: `${settled.type} ${settled.operationId} of payment ${settled.paymentId} settled ${settled.status}${settled.notificationId ? "; the merchant is notified" : ""}${finished ? `; payment: ${finished}` : ""}`,
      data: { ...settled, payment: finished ?? null },
    };
  },
  },
  {
    words: "operations acknowledge",
    args: ["<operationid>"],
    options: { reason: { type: "string", value: '"<what you did>"', required: true } },
    description: `close the alert of a settled operation an acquirer contradicted, once reconciled`,
    run: async (options, args) => {
    const input = z
      .object({
        operationId: z.string().regex(/^[A-Za-z0-9]{1,32}$/, "the operation id (npm run cli -- operations waiting)"),
        reason: z.string({ error: "--reason is required" }).trim().min(1, "--reason is required").max(500),
      })
      .parse({ operationId: args[0], reason: options.reason });
    await acknowledgeLateAnswer({ ...input, by: { userId: null, label: "the operator CLI" }, audit: cliAudit });
    return { text: `the contradiction on ${input.operationId} is marked reconciled`, data: { operationid: input.operationId } };
  },
  },
  // processors: late approvals behind time-outs (the in-process sandboxes are not reachable from the CLI).
  {
    words: "processors reconcile",
    options: { "older-than-minutes": { type: "string", value: "<n>" } },
    description: `look up timed-out authorizations at configured acquirers; void late approvals (the service's
in-process sandboxes are not reachable from the CLI)`,
    run: async (options) => {
    const minutes = z.coerce.number().min(0).default(5).parse(options["older-than-minutes"]);
    const reconciled = await reconcileTimedOutAuthorizations({ olderThanMs: minutes * 60_000 });
    return {
      text:
        reconciled.length === 0
          ? "no timed-out authorizations to reconcile"
          : reconciled.map((entry) => `${entry.operationId}  ${entry.processor}  ${entry.outcome}`).join("\n"),
      data: reconciled,
    };
  },
  },
  // Operations (docs/operations.md): card-data key rotation.
  {
    words: "cards rotate-key",
    options: {},
    description: `re-encrypt stored cards (and back-office TOTP secrets, acquirer credentials) under the current
CARD_DATA_KEY; the old key must be in CARD_DATA_PREVIOUS_KEYS (docs/operations.md)`,
    run: async () => {
    const cards = await rotateCardDataKey();
    const totp = await resealTotpSecrets();
    const signing = await resealSigningSecrets();
    const acquirer = await resealAcquirerCredentials();
    const left = Object.entries(cards.remaining);
    const done = left.length === 0 && totp.remaining === 0 && signing.remaining === 0 && acquirer.remaining === 0;
    return {
      text: [
        `re-encrypted ${cards.reencrypted} stored card(s), re-sealed ${totp.resealed} TOTP secret(s), ${signing.resealed} signing secret(s) and ${acquirer.resealed} acquirer account credential(s) under key ${cards.keyId}`,
        done
          ? "nothing is left under other keys: the old keys can be removed from CARD_DATA_PREVIOUS_KEYS"
          : `still under other keys: ${left.map(([id, count]) => `${count} card(s) under ${id}`).join(", ") || "none"}; ${totp.remaining} TOTP secret(s); ${signing.remaining} signing secret(s); ${acquirer.remaining} acquirer account credential(s)`,
      ].join("\n"),
      data: {
        keyid: cards.keyId,
        reencrypted: cards.reencrypted,
        remaining: cards.remaining,
        totpResealed: totp.resealed,
        totpRemaining: totp.remaining,
        signingSecretsResealed: signing.resealed,
        signingSecretsRemaining: signing.remaining,
        acquirerCredentialsResealed: acquirer.resealed,
        acquirerCredentialsRemaining: acquirer.remaining,
        complete: done,
      },
    };
  },
  },
];

/** Every command of the CLI, in the order of the usage text. */
export const CLI_COMMANDS: readonly CliCommand[] = [...COMMANDS.slice(0, COMMANDS.findIndex((command) => command.words === "cards rotate-key")), ...ACCOUNT_COMMANDS, ...WEBHOOK_COMMANDS, ...COMMANDS.filter((command) => command.words === "cards rotate-key")];

/** The usage text, naming the CLI as it was invoked (`npm run -s cli --` or `node dist/cli.js`). */
export function cliUsage(invokedAs = "npm run -s cli --"): string {
  return usageText(CLI_COMMANDS, invokedAs);
}

/**
 * Runs a command line (`argv` as typed after the CLI's name). In-process callers may pass the options
 * as an object instead: they are turned back into arguments and parsed by the same table, so an
 * option no command declares fails here as it does on a command line.
 */
export async function runCliCommand(argv: readonly string[], options?: Options): Promise<CliResult> {
  const line = options === undefined ? argv : [...argv, ...optionArguments(options)];
  const parsed = parseCommandLine(CLI_COMMANDS, line);
  try {
    return await parsed.command.run(parsed.options, parsed.args);
  } catch (error) {
    if (error instanceof z.ZodError) {
      throw new CliUsageError(error.issues.map((issue) => `${issue.path.join(".") || "value"}: ${issue.message}`).join("; "));
    }
    throw error;
  }
}

function optionArguments(options: Options): string[] {
  return Object.entries(options).flatMap(([name, value]) => {
    if (value === undefined || value === false) return [];
    if (value === true) return [`--${name}`];
    return ([] as string[]).concat(value).flatMap((item) => [`--${name}`, item]);
  });
}
