// The operator CLI's commands (scripts/cli.ts parses the arguments and prints the result).
import { z } from "zod";
import { db } from "../db";
import { createMerchant } from "../merchants/create-merchant";
import { createApiKey } from "../api-keys/create-api-key";
import { createUser } from "../users/create-user";
import { formatRunsTable, listRuns } from "../inngest/list-runs";
import { reconcileTimedOutAuthorizations } from "../processors/reconcile-timed-out-authorizations";
import { rotateCardDataKey } from "../cards/rotate-card-data-key";
import { resealTotpSecrets } from "../users/reseal-totp-secrets";
import { resetUserPassword } from "../users/reset-user-password";
import { recordAuditEntry } from "../backoffice/audit";
import { finishAfterOperatorSettlement } from "../cardholder/finish-stuck-payments";
import {
  acknowledgeLateAnswer,
  listOperatorCases,
  settleOperationByOperator,
  type OperatorAuditEntry,
} from "../payments/settle-operation-by-operator";
import type { Tx } from "../db";

export const CLI_USAGE = `usage: npm run cli -- <command> [options] [--json]

  merchant create --name <name>                 create a merchant; prints its merchantid and a new API key
  merchant list                                 list merchants
  apikey create --merchant <id> [--name <name>] create an API key for a merchant (shown once)
  user create --merchant <id> --email <email> --name <name> --password <password> [--role owner|developer|viewer]
                                                create a back-office user
  user reset-password <email>                   give a back-office user a new temporary password (printed once);
                                                their sessions end; recorded in the merchant's audit log
  runs list [--limit <n>]                       recent background runs (embedded executor): status, attempts, next wake-up, last error
  operations waiting                            operations waiting for an operator (outcome unknown, no look-up settled
                                                them) and settled ones an acquirer later contradicted (docs/operations.md)
  operations settle <operationid> --outcome approved|declined [--reference <acquirer's id>] --reason "<what you checked>"
                                                record the acquirer's answer to an operation waiting for an operator:
                                                totals, merchant notification and audit entry in one transaction
  operations acknowledge <operationid> --reason "<what you did>"
                                                close the alert of a settled operation an acquirer contradicted, once reconciled
  processors reconcile [--older-than-minutes <n>]
                                                look up timed-out authorizations at configured acquirers; void late approvals
  cards rotate-key                              re-encrypt stored cards (and back-office TOTP secrets) under the current
                                                CARD_DATA_KEY; the old key must be in CARD_DATA_PREVIOUS_KEYS (docs/operations.md)`;

export class CliUsageError extends Error {}

/** The audit entry of an operator's settlement from the CLI (no back-office user: shown as "system"). */
const cliAudit = (tx: Tx, entry: OperatorAuditEntry) =>
  recordAuditEntry(tx, { merchantId: entry.merchantId, userId: null, action: "operation.settled_by_operator", target: entry.paymentId, details: { ...entry.details } });

export interface CliResult {
  text: string;
  data: unknown;
}

type Options = Record<string, string | boolean | undefined>;

function required(options: Options, name: string): string {
  const value = options[name];
  if (typeof value !== "string" || value.trim() === "") throw new CliUsageError(`--${name} is required`);
  return value.trim();
}

async function merchantMustExist(merchantId: string): Promise<void> {
  const merchant = await db().merchant.findUnique({ where: { id: merchantId }, select: { id: true } });
  if (!merchant) throw new Error(`no merchant with id ${merchantId}`);
}

/** `args`: the words after the command's two (e.g. the email of `user reset-password <email>`). */
export type CommandHandler = (options: Options, args: string[]) => Promise<CliResult>;

/** Commands by their words; other modules add theirs (e.g. `runs list`) in this table. */
export const COMMANDS: Record<string, CommandHandler> = {
  "merchant create": async (options) => {
    const name = z.string().trim().min(1).max(100).parse(required(options, "name"));
    const { merchant, apiKey } = await createMerchant({ name, withApiKey: true });
    return {
      // The signing secret is printed too: a merchant set up from the CLI must be able to verify
      // its first notification without a back-office visit (it stays readable in Settings → API keys).
      text: `Merchant ${merchant.name}\n  merchantid  ${merchant.id}\n  API key     ${apiKey}   (shown once; store it now)\n  Notification signing secret  ${merchant.notificationSecret}   (verifies notifications; also in the back office, Settings → API-key)`,
      data: { merchantid: merchant.id, name: merchant.name, apikey: apiKey, notificationsecret: merchant.notificationSecret },
    };
  },
  "merchant list": async () => {
    const merchants = await db().merchant.findMany({ orderBy: { createdAt: "asc" }, select: { id: true, name: true, createdAt: true } });
    return {
      text: merchants.map((m) => `${m.id}  ${m.name}  (created ${m.createdAt.toISOString()})`).join("\n") || "no merchants",
      data: merchants.map((m) => ({ merchantid: m.id, name: m.name, created: m.createdAt.toISOString() })),
    };
  },
  "apikey create": async (options) => {
    const merchantId = required(options, "merchant");
    await merchantMustExist(merchantId);
    const name = typeof options.name === "string" && options.name.trim() ? options.name.trim() : "CLI key";
    const { apiKey, record } = await createApiKey({ merchantId, name });
    return {
      text: `API key for ${merchantId}: ${apiKey}   (shown once; store it now)`,
      data: { merchantid: merchantId, apikey: apiKey, id: record.id, prefix: record.prefix, name: record.name },
    };
  },
  "user create": async (options) => {
    const merchantId = required(options, "merchant");
    await merchantMustExist(merchantId);
    const role = (typeof options.role === "string" ? options.role : "owner").toUpperCase();
    const user = await createUser({
      merchantId,
      email: required(options, "email"),
      name: required(options, "name"),
      password: required(options, "password"),
      role: role as "OWNER" | "DEVELOPER" | "VIEWER",
    });
    return {
      text: `User ${user.email} (${user.role.toLowerCase()}) created for merchant ${merchantId}`,
      data: { id: user.id, email: user.email, name: user.name, role: user.role.toLowerCase(), merchantid: merchantId },
    };
  },
  // For a user locked out of the back office with no owner to reset them (or the only owner).
  "user reset-password": async (options, args) => {
    const email = z
      .string()
      .trim()
      .toLowerCase()
      .pipe(z.email("must be an email address"))
      .parse(args[0] ?? (typeof options.email === "string" ? options.email : ""));
    const user = await db().user.findUnique({ where: { email }, select: { id: true, merchantId: true } });
    if (!user) throw new Error(`no back-office user with email ${email}`);
    const { temporaryPassword } = await db().$transaction(async (tx) => {
      const reset = await resetUserPassword({ tx, userId: user.id });
      await recordAuditEntry(tx, { merchantId: user.merchantId, userId: null, action: "operator.password_reset", target: user.id, details: { email } });
      return reset;
    });
    return {
      text: `Temporary password for ${email}: ${temporaryPassword}   (shown once; hand it over securely, then they change it under Your account)
Their open sessions were signed out.`,
      data: { email, temporarypassword: temporaryPassword, merchantid: user.merchantId },
    };
  },
  // Background work (Inngest): runs of the embedded executor.
  "runs list": async (options) => {
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
  // Unknown outcomes left for an operator (docs/operations.md, "Unknown outcomes").
  "operations waiting": async () => {
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
  "operations settle": async (options, args) => {
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
  "operations acknowledge": async (options, args) => {
    const input = z
      .object({
        operationId: z.string().regex(/^[A-Za-z0-9]{1,32}$/, "the operation id (npm run cli -- operations waiting)"),
        reason: z.string({ error: "--reason is required" }).trim().min(1, "--reason is required").max(500),
      })
      .parse({ operationId: args[0], reason: options.reason });
    await acknowledgeLateAnswer({ ...input, by: { userId: null, label: "the operator CLI" }, audit: cliAudit });
    return { text: `the contradiction on ${input.operationId} is marked reconciled`, data: { operationid: input.operationId } };
  },
  // processors: late approvals behind time-outs (the in-process sandboxes are not reachable from the CLI).
  "processors reconcile": async (options) => {
    const minutes = z.coerce.number().min(0).default(5).parse(options["older-than-minutes"]);
    const reconciled = await reconcileTimedOutAuthorizations({ olderThanMs: minutes * 60_000 });
    return {
      text: reconciled.length === 0 ? "no timed-out authorizations to reconcile" : reconciled.map((entry) => `${entry.operationId}  ${entry.processor}  ${entry.outcome}`).join("\n"),
      data: reconciled,
    };
  },
  // Operations (docs/operations.md): card-data key rotation.
  "cards rotate-key": async () => {
    const cards = await rotateCardDataKey();
    const totp = await resealTotpSecrets();
    const left = Object.entries(cards.remaining);
    const done = left.length === 0 && totp.remaining === 0;
    return {
      text: [
        `re-encrypted ${cards.reencrypted} stored card(s) and re-sealed ${totp.resealed} TOTP secret(s) under key ${cards.keyId}`,
        done
          ? "nothing is left under other keys: the old keys can be removed from CARD_DATA_PREVIOUS_KEYS"
          : `still under other keys: ${left.map(([id, count]) => `${count} card(s) under ${id}`).join(", ") || "none"}; ${totp.remaining} TOTP secret(s)`,
      ].join("\n"),
      data: { keyid: cards.keyId, reencrypted: cards.reencrypted, remaining: cards.remaining, totpResealed: totp.resealed, totpRemaining: totp.remaining, complete: done },
    };
  },
};

export async function runCliCommand(words: string[], options: Options): Promise<CliResult> {
  const key = words.slice(0, 2).join(" ");
  const handler = COMMANDS[key];
  if (!handler) throw new CliUsageError(`unknown command: ${words.join(" ")}`);
  try {
    return await handler(options, words.slice(2));
  } catch (error) {
    if (error instanceof z.ZodError) {
      throw new CliUsageError(error.issues.map((issue) => `${issue.path.join(".") || "value"}: ${issue.message}`).join("; "));
    }
    throw error;
  }
}
