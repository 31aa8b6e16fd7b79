// Which acquirer accounts a payment tries, in order. The processor order comes from the request's
// `processor` list, or without one from the merchant's routing settings for the requested `rule`
// (1 primary, 2 secondary; a merchant without settings for that rule falls back to rule 1, then to
// the service default). Each processor in that order is tried with the merchant's one enabled
// account there of the payment's mode that accepts its currency: a test payment only ever goes to a
// test account (the merchant's own, or the built-in sandbox's), a live one only to a live account. A
// processor without such an account is skipped, and a payment for which none fits is refused before
// anything is made (initdynamic, mit, payout), naming the currency or the processor. A processor
// whose API cannot do what the payment asks (payouts, merchant-initiated authorizations:
// lib/acquirers/capabilities.ts) is skipped the same way, and refused when the request names it.
import { db, type Tx } from "../db";
import { SettingsCache } from "../db/settings-cache";
import { invalidParameter, type ApiError } from "../errors";
import { DEFAULT_ROUTING } from "../acquirers";
import type { Mode } from "../mode";
import { addBuiltInSandboxAccounts } from "./accounts/add-built-in-sandbox-accounts";
import { unsupportedPurpose, type RoutingPurpose } from "../acquirers/capabilities";
import { builtInSandboxAccounts } from "../acquirers/registry";
import { isAcquirerName, type AcquirerName } from "../acquirers/names";

export interface ProcessorOrderOptions {
  requested?: readonly string[];
  /** The merchant's orders by rule number. */
  merchantRules: ReadonlyMap<number, readonly AcquirerName[]>;
  rule?: number;
}

/** Pure: the order from a request list or the merchant's rules (duplicates and unknown names dropped). */
export function processorOrder({ requested, merchantRules, rule = 1 }: ProcessorOrderOptions): AcquirerName[] {
  const unique = (names: readonly string[]) => [...new Set(names.filter(isAcquirerName))];
  const fromRequest = unique(requested ?? []);
  if (fromRequest.length > 0) return fromRequest;
  const fromRule = unique(merchantRules.get(rule) ?? []);
  if (fromRule.length > 0) return fromRule;
  const primary = unique(merchantRules.get(1) ?? []);
  if (primary.length > 0) return primary;
  return [...DEFAULT_ROUTING[1]];
}

/** An enabled account of the merchant that accepts the payment's currency. */
export interface FittingAccount {
  id: string;
  processor: AcquirerName;
  /** The account's platform (decision 0193); null: its processor's first. */
  platform?: string | null;
}

export interface RoutedAccount {
  processor: AcquirerName;
  accountId: string;
}

export type RoutingPlan = { kind: "route"; accounts: RoutedAccount[] } | { kind: "refused"; error: ApiError };

/**
 * Pure: the accounts to try. A request that names processors is refused when a named processor has
 * no fitting account (the merchant asked for it by name); the merchant's own order skips those and
 * is refused only when none is left.
 */
export function planRouting({
  order,
  fitting,
  currency,
  fromRequest,
  rule,
  purpose = "payment",
  mode = "live",
}: {
  order: readonly AcquirerName[];
  fitting: readonly FittingAccount[];
  currency: string;
  fromRequest: boolean;
  rule: number;
  purpose?: RoutingPurpose;
  /** Named in a refusal (the accounts in `fitting` are of this mode). */
  mode?: Mode;
}): RoutingPlan {
  const byProcessor = new Map<AcquirerName, FittingAccount>();
  for (const account of fitting) if (!byProcessor.has(account.processor)) byProcessor.set(account.processor, account);
  // What an account can do is its platform's: a bambora account on Worldline takes MITs, one on Bambora North America does not.
  const unsupported = (processor: AcquirerName) => unsupportedPurpose(processor, purpose, byProcessor.get(processor)?.platform);
  const unable = order.map(unsupported).filter((reason): reason is string => Boolean(reason));
  if (fromRequest && unable.length > 0) return { kind: "refused", error: invalidParameter("processor", unable[0]!) };
  const able = order.filter((processor) => !unsupported(processor));
  if (fromRequest) {
    const missing = able.find((processor) => !byProcessor.has(processor));
    if (missing)
      return {
        kind: "refused",
        error: invalidParameter("processor", `${missing} has no enabled ${mode} acquirer account of this merchant that accepts ${currency}`),
      };
  }
  const accounts = able.flatMap((processor) => {
    const account = byProcessor.get(processor);
    return account ? [{ processor, accountId: account.id }] : [];
  });
  if (accounts.length > 0) return { kind: "route", accounts };
  return {
    kind: "refused",
    error: invalidParameter(
      "currency",
      `no enabled ${mode} acquirer account of this merchant accepts ${currency}` +
        (fromRequest ? "" : ` at the processors of routing rule ${rule} (${order.join(", ")})`) +
        (unable.length > 0 ? ` (${unable.join("; ")})` : ""),
    ),
  };
}

export interface ResolveRoutingOptions {
  merchantId: string;
  /** The payment's mode: only accounts of this mode are tried. */
  mode: Mode;
  currency: string;
  /** What the payment asks of its acquirer (default a cardholder payment). */
  purpose?: RoutingPurpose;
  requested?: readonly string[];
  rule?: number;
  tx?: Tx;
  /**
   * Read the merchant's accounts and routing rules from this process's cache (lib/db/settings-cache.ts,
   * dropped at every change of either anywhere): initdynamic's check, on the merchant API's hottest
   * path. Without a transaction only; the authorization itself reads them fresh.
   */
  cached?: boolean;
}

const routingCache = ((globalThis as unknown as { __cpsRoutingCache?: SettingsCache<unknown> }).__cpsRoutingCache ??= new SettingsCache());

/** fittingAccounts and the routing rules, from the settings cache. */
function cachedRoutingInputs(merchantId: string, mode: Mode, currency: string, fromRequest: boolean) {
  const client = db();
  return Promise.all([
    routingCache.get(`accounts\n${merchantId}\n${mode}\n${currency}`, () => fittingAccounts(client, merchantId, mode, currency)) as Promise<FittingAccount[]>,
    fromRequest
      ? Promise.resolve([])
      : (routingCache.get(`rules\n${merchantId}`, () =>
          client.processorRouting.findMany({ where: { merchantId }, select: { rule: true, processors: true } }),
        ) as Promise<{ rule: number; processors: AcquirerName[] }[]>),
  ]);
}

/** The processors at which the merchant has a test account (enabled or not, any currency): none of them gets a built-in one. */
async function testAccountProcessors(client: Tx | ReturnType<typeof db>, merchantId: string, cached: boolean | undefined): Promise<Set<string>> {
  const load = async () =>
    (
      await client.$queryRaw<{ processor: string }[]>`
        SELECT DISTINCT "processor"::text AS "processor" FROM "AcquirerAccount" WHERE "merchantId" = ${merchantId} AND "mode" = 'test'`
    ).map((row) => row.processor);
  const processors = cached ? ((await routingCache.get(`test-processors\n${merchantId}`, load)) as string[]) : await load();
  return new Set(processors);
}

/** The merchant's enabled accounts of `mode` that accept `currency`, oldest first (one per processor by the overlap rule). */
async function fittingAccounts(client: Tx | ReturnType<typeof db>, merchantId: string, mode: Mode, currency: string): Promise<FittingAccount[]> {
  // Raw SQL: initdynamic runs this on the merchant API's hottest path (docs/performance.md).
  return client.$queryRaw<FittingAccount[]>`
    SELECT "id", "processor"::text AS "processor", "platform" FROM "AcquirerAccount"
    WHERE "merchantId" = ${merchantId} AND "mode" = ${mode}::"Mode" AND "enabled" AND ("anyCurrency" OR ${currency} = ANY("currencies"))
    ORDER BY "createdAt", "id"`;
}

/** The routing plan of a payment of `mode` and `currency` for the merchant: the accounts to try, or the refusal. */
export async function resolveRouting({
  merchantId,
  mode,
  currency,
  requested,
  rule = 1,
  purpose,
  tx,
  cached,
}: ResolveRoutingOptions): Promise<RoutingPlan> {
  const client = tx ?? db();
  const fromRequest = Boolean(requested?.some(isAcquirerName));
  const [fitting, rows] = await (cached && !tx
    ? cachedRoutingInputs(merchantId, mode, currency, fromRequest)
    : Promise.all([
        fittingAccounts(client, merchantId, mode, currency),
        fromRequest
          ? Promise.resolve([])
          : client.processorRouting.findMany({ where: { merchantId }, select: { rule: true, processors: true } }),
      ]));
  const order = processorOrder({ requested, merchantRules: new Map(rows.map((row) => [row.rule, row.processors])), rule });
  if (mode === "test") {
    // Test mode needs no set-up: a processor in the order without a test account of the merchant's
    // gets the built-in sandbox's (once; an account of the merchant's own there is never replaced).
    const missing = order.filter((processor) => !fitting.some((account) => account.processor === processor) && builtInSandboxAccounts(processor).length > 0);
    // Read first, without a lock: a processor where the merchant has a test account of its own (of
    // other currencies, or disabled) gets no built-in one, which addBuiltInSandboxAccounts would
    // find only under the merchant's row lock, in a transaction of four statements on every
    // request (every initdynamic of such a merchant waited for that lock, issue 37).
    const withTestAccounts = missing.length > 0 ? await testAccountProcessors(client, merchantId, cached && !tx) : undefined;
    const toAdd = missing.filter((processor) => !withTestAccounts?.has(processor));
    if (toAdd.length > 0 && (await addBuiltInSandboxAccounts({ merchantId, processors: toAdd, tx })).length > 0) {
      return planRouting({ order, fitting: await fittingAccounts(client, merchantId, mode, currency), currency, fromRequest, rule, purpose, mode });
    }
  }
  return planRouting({ order, fitting, currency, fromRequest, rule, purpose, mode });
}

/**
 * resolveRouting from the settings cache: a plan made of cached inputs is itself kept until the next
 * change of accounts or routing rules anywhere (initdynamic asks the same question on every request:
 * about 1% of its CPU, docs/performance.md). Only a routed plan is kept; a refusal is made afresh,
 * so each request throws an error of its own. Shared, so frozen.
 */
function cachedPlan(options: ResolveRoutingOptions): Promise<RoutingPlan> {
  const key = `plan\n${options.merchantId}\n${options.mode}\n${options.currency}\n${options.purpose ?? ""}\n${options.rule ?? 1}\n${options.requested?.join(",") ?? ""}`;
  return routingCache.get(
    key,
    async () => {
      const plan = await resolveRouting(options);
      if (plan.kind === "route") {
        for (const account of plan.accounts) Object.freeze(account);
        Object.freeze(plan.accounts);
      }
      return Object.freeze(plan);
    },
    (plan) => (plan as RoutingPlan).kind === "route",
  ) as Promise<RoutingPlan>;
}

/** For the requests that start a payment: throws the refusal (INVALID_PARAMETER) when no account fits. */
export async function assertRoutable(options: ResolveRoutingOptions): Promise<RoutedAccount[]> {
  const plan = options.cached && !options.tx ? await cachedPlan(options) : await resolveRouting(options);
  if (plan.kind === "refused") throw plan.error;
  return plan.accounts;
}
