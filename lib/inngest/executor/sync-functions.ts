// Learns the app's functions the way an Inngest server does: an in-band sync (signed PUT to the
// serve endpoint), which answers with every function's id, triggers and retries.
import canonicalize from "canonicalize";
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
}

export const DEFAULT_RETRIES = 4;

/**
 * The subset of trigger expressions the embedded executor evaluates: `event.<path> == '<text>'`
 * joined with &&, which covers onFailure handlers. Anything else is reported as unsupported.
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

export function toFunctionDefinition(synced: SyncedFunction): { definition: FunctionDefinition; problems: string[] } {
  const problems: string[] = [];
  const triggers: FunctionTrigger[] = [];
  for (const trigger of synced.triggers) {
    if (!("event" in trigger)) {
      problems.push(`${synced.id}: cron triggers are not run by the embedded executor`);
      continue;
    }
    const conditions = trigger.expression ? parseTriggerExpression(trigger.expression) : [];
    if (!conditions) {
      problems.push(`${synced.id}: trigger expression ${JSON.stringify(trigger.expression)} is not supported by the embedded executor`);
      continue;
    }
    triggers.push({ event: trigger.event, conditions });
  }
  const retries = Object.values(synced.steps)[0]?.retries?.attempts ?? DEFAULT_RETRIES;
  return { definition: { id: synced.id, triggers, maxAttempts: retries + 1 }, problems };
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
  for (const synced of parsed.functions) {
    const result = toFunctionDefinition(synced);
    functions.push(result.definition);
    problems.push(...result.problems);
  }
  return { functions, problems };
}

/** Whether `event` starts a run of a function with `trigger`. */
export function triggerMatches(trigger: FunctionTrigger, event: { name: string } & Record<string, unknown>): boolean {
  if (trigger.event !== event.name) return false;
  return trigger.conditions.every(({ path, value }) => {
    let current: unknown = event;
    for (const key of path) {
      if (typeof current !== "object" || current === null) return false;
      current = (current as Record<string, unknown>)[key];
    }
    return current === value;
  });
}
