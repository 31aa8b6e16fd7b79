// Learns the app's functions the way an Inngest server does: an in-band sync (signed PUT to the
// serve endpoint), which answers with every function's id, triggers and retries.
import canonicalize from "canonicalize";
import { CronExpressionParser } from "cron-parser";
import { z } from "zod";
import { inBandSyncResponseSchema, type SyncedFunction } from "./protocol";
import { signatureHeader } from "./signature";

export interface FunctionTrigger {
  event: string;
  /** Equality conditions on the event (from a trigger expression), all of which must hold. */
  conditions: { path: string[]; value: string }[];
}

export interface FunctionDefinition {
  /** Composite id `<appId>-<fnId>`, as in the call URL. */
  id: string;
  triggers: FunctionTrigger[];
  /** retries + 1; Inngest's default is 4 retries. */
  maxAttempts: number;
  /** The `concurrency` limit (function scope), with its key expression if any. */
  concurrency?: { limit: number; key?: KeyPart[] };
  /** Cron triggers: a run starts at each fire time. */
  crons?: CronSchedule[];
}

/** A cron trigger: the expression as written, and its time zone ("TZ=Europe/Copenhagen ..."). */
export interface CronSchedule {
  cron: string;
  expression: string;
  tz: string;
}

export function parseCronTrigger(cron: string): CronSchedule | undefined {
  const match = /^\s*(?:(?:CRON_TZ|TZ)=(\S+)\s+)?(.+?)\s*$/.exec(cron);
  if (!match) return undefined;
  const schedule = { cron, expression: match[2] as string, tz: match[1] ?? "UTC" };
  try {
    CronExpressionParser.parse(schedule.expression, { tz: schedule.tz });
    return schedule;
  } catch {
    return undefined;
  }
}

/** The fire times of `schedule` after `after` up to and including `until` (at most `max`). */
export function cronFireTimes(schedule: CronSchedule, after: Date, until: Date, max = 100): Date[] {
  const times: Date[] = [];
  const iterator = CronExpressionParser.parse(schedule.expression, { tz: schedule.tz, currentDate: after });
  while (times.length < max) {
    const next = iterator.next().toDate();
    if (next.getTime() > until.getTime()) break;
    times.push(next);
  }
  return times;
}

export type KeyPart = { path: string[] } | { text: string };

/**
 * Options an Inngest server honours and the embedded executor does not implement (no job uses
 * them; docs in packages/inngest-embedded/README.md). A function that sets one is refused at sync:
 * run it on an Inngest server, or implement the option with its tests.
 */
const UNSUPPORTED_OPTIONS = {
  cancel: "cancelOn",
  idempotency: "idempotency",
  throttle: "throttle",
  rateLimit: "rateLimit",
  debounce: "debounce",
  batchEvents: "batchEvents",
  priority: "priority",
  singleton: "singleton",
  timeouts: "timeouts",
} as const;

/** The event of an onFailure handler, which the SDK registers as a function of its own. */
const FUNCTION_FAILED_EVENT = "inngest/function.failed";

/** A sync that named functions using what the embedded executor does not implement. */
export class UnsupportedFunctionsError extends Error {
  constructor(readonly problems: string[]) {
    super(`the embedded executor refuses these functions (run them on an Inngest server): ${problems.join("; ")}`);
    this.name = "UnsupportedFunctionsError";
  }
}

export const DEFAULT_RETRIES = 4;

/**
 * The subset of trigger expressions the embedded executor evaluates: `event.<path> == '<text>'`
 * joined with &&. Anything else is refused as unsupported.
 */
export function parseTriggerExpression(expression: string): FunctionTrigger["conditions"] | undefined {
  const conditions: FunctionTrigger["conditions"] = [];
  for (const part of expression.split("&&")) {
    const match = /^\s*event((?:\.[A-Za-z_][A-Za-z0-9_]*)+)\s*==\s*(?:'([^']*)'|"([^"]*)")\s*$/.exec(part);
    if (!match) return undefined;
    conditions.push({ path: (match[1] as string).slice(1).split("."), value: (match[2] ?? match[3]) as string });
  }
  return conditions;
}

/**
 * The subset of concurrency key expressions the embedded executor evaluates: event paths and quoted
 * text joined with +, e.g. `event.data.paymentId` or `event.data.kind + "-" + event.data.id`.
 */
export function parseKeyExpression(expression: string): KeyPart[] | undefined {
  const parts: KeyPart[] = [];
  for (const term of expression.split("+")) {
    const path = /^\s*event((?:\.[A-Za-z_][A-Za-z0-9_]*)+)\s*$/.exec(term);
    const text = /^\s*(?:'([^'+]*)'|"([^"+]*)")\s*$/.exec(term);
    if (path) parts.push({ path: (path[1] as string).slice(1).split(".") });
    else if (text) parts.push({ text: (text[1] ?? text[2]) as string });
    else return undefined;
  }
  return parts;
}

/** The key of `event`, or null when a path is missing. */
export function keyOf(parts: KeyPart[] | undefined, event: Record<string, unknown>): string | null {
  if (!parts) return null;
  let key = "";
  for (const part of parts) {
    if ("text" in part) {
      key += part.text;
      continue;
    }
    const value = readPath(event, part.path);
    if (value === undefined || value === null || typeof value === "object") return null;
    key += String(value);
  }
  return key;
}

function readPath(value: unknown, path: string[]): unknown {
  let current = value;
  for (const key of path) {
    if (typeof current !== "object" || current === null) return undefined;
    current = (current as Record<string, unknown>)[key];
  }
  return current;
}

const concurrencySchema = z.union([
  z.number().int().min(0),
  z.object({ limit: z.number().int().min(0), key: z.string().optional(), scope: z.enum(["fn", "env", "account"]).optional() }),
]);

/**
 * The function-scoped `concurrency` limit (a number or {limit, key}). Env and account scopes,
 * and a second limit, are reported and ignored; a limit of 0 means none, as on Inngest.
 */
function readConcurrency(synced: SyncedFunction, problems: string[]): FunctionDefinition["concurrency"] {
  if (synced.concurrency === undefined || synced.concurrency === null) return undefined;
  const entries = Array.isArray(synced.concurrency) ? synced.concurrency : [synced.concurrency];
  let chosen: FunctionDefinition["concurrency"];
  for (const raw of entries) {
    const parsed = concurrencySchema.safeParse(raw);
    if (!parsed.success) {
      problems.push(`${synced.id}: concurrency ${JSON.stringify(raw)} is not understood by the embedded executor and is ignored`);
      continue;
    }
    const entry = typeof parsed.data === "number" ? { limit: parsed.data } : parsed.data;
    if ("scope" in entry && entry.scope && entry.scope !== "fn") {
      problems.push(`${synced.id}: concurrency with scope "${entry.scope}" is ignored by the embedded executor`);
      continue;
    }
    if (entry.limit === 0) continue;
    const key = "key" in entry && entry.key ? parseKeyExpression(entry.key) : undefined;
    if ("key" in entry && entry.key && !key) {
      problems.push(`${synced.id}: concurrency key ${JSON.stringify(entry.key)} is not supported by the embedded executor and is ignored`);
      continue;
    }
    if (chosen) {
      problems.push(`${synced.id}: only the first concurrency limit is enforced by the embedded executor`);
      continue;
    }
    chosen = { limit: entry.limit, ...(key ? { key } : {}) };
  }
  return chosen;
}

/**
 * The executor's view of one synced function. `unsupported` lists what it uses that the executor
 * does not implement; `problems` what it ignores with a warning (a concurrency scope it cannot enforce).
 */
export function toFunctionDefinition(synced: SyncedFunction): {
  definition: FunctionDefinition;
  problems: string[];
  unsupported: string[];
} {
  const problems: string[] = [];
  const unsupported: string[] = [];
  for (const [option, name] of Object.entries(UNSUPPORTED_OPTIONS)) {
    if (synced[option] !== undefined && synced[option] !== null) unsupported.push(`${synced.id}: ${name}`);
  }
  const triggers: FunctionTrigger[] = [];
  const crons: CronSchedule[] = [];
  for (const trigger of synced.triggers) {
    if (!("event" in trigger)) {
      const cron = parseCronTrigger(trigger.cron);
      if (cron) crons.push(cron);
      else unsupported.push(`${synced.id}: cron ${JSON.stringify(trigger.cron)} cannot be read`);
      continue;
    }
    if (trigger.event === FUNCTION_FAILED_EVENT) {
      unsupported.push(`${synced.id}: onFailure (a handler triggered by ${FUNCTION_FAILED_EVENT})`);
      continue;
    }
    const conditions = trigger.expression ? parseTriggerExpression(trigger.expression) : [];
    if (!conditions) {
      unsupported.push(`${synced.id}: trigger expression ${JSON.stringify(trigger.expression)}`);
      continue;
    }
    triggers.push({ event: trigger.event, conditions });
  }
  const concurrency = readConcurrency(synced, problems);
  const retries = Object.values(synced.steps)[0]?.retries?.attempts ?? DEFAULT_RETRIES;
  return {
    definition: {
      id: synced.id,
      triggers,
      maxAttempts: retries + 1,
      ...(concurrency ? { concurrency } : {}),
      ...(crons.length ? { crons } : {}),
    },
    problems,
    unsupported,
  };
}

export async function syncFunctions(options: { serveUrl: string; signingKey: string; timeoutMs?: number }): Promise<{
  functions: FunctionDefinition[];
  problems: string[];
}> {
  const body = canonicalize({ url: options.serveUrl }) as string;
  const response = await fetch(options.serveUrl, {
    method: "PUT",
    headers: {
      "content-type": "application/json",
      "x-inngest-sync-kind": "in_band",
      "x-inngest-signature": signatureHeader({ body, signingKey: options.signingKey, now: new Date() }),
    },
    body,
    signal: AbortSignal.timeout(options.timeoutMs ?? 10_000),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`in-band sync with ${options.serveUrl} answered HTTP ${response.status}: ${text.slice(0, 200)}`);
  const parsed = inBandSyncResponseSchema.parse(JSON.parse(text));
  const functions: FunctionDefinition[] = [];
  const problems: string[] = [];
  const unsupported: string[] = [];
  for (const synced of parsed.functions) {
    const result = toFunctionDefinition(synced);
    functions.push(result.definition);
    problems.push(...result.problems);
    unsupported.push(...result.unsupported);
  }
  // Loud, not partial: running the other functions would hide that a job silently lost a feature.
  if (unsupported.length > 0) throw new UnsupportedFunctionsError(unsupported);
  return { functions, problems };
}

/** Whether `event` starts a run of a function with `trigger`. */
export function triggerMatches(trigger: FunctionTrigger, event: { name: string } & Record<string, unknown>): boolean {
  if (trigger.event !== event.name) return false;
  return trigger.conditions.every(({ path, value }) => readPath(event, path) === value);
}
