// Runs a zod schema over merchant input and turns its problem into the spec's INVALID_PARAMETER
// with an errordescription that names the parameter and the reason. An unknown parameter is named
// first, with the parameter it was probably meant to be: `{"amout": 100}` is answered
// "amout: unknown parameter (did you mean amount?)", not "amount: is required" (decision 0163). A
// string that holds U+0000 is refused before anything else, whatever field it is in: PostgreSQL
// cannot store it, and a free-text field would otherwise fail its INSERT with a 500.
import { z } from "zod";
import { NUL } from "../db/postgres-text";
import { invalidParameter, type ApiError } from "../errors";

/** The path (a.b.0) of the first key or string value holding U+0000, or undefined. */
export function findNulCharacter(value: unknown, path: string[] = [], depth = 0): string | undefined {
  if (typeof value === "string") return value.includes(NUL) ? path.join(".") || "body" : undefined;
  if (value === null || typeof value !== "object" || depth > 32) return undefined;
  for (const [key, item] of Array.isArray(value) ? value.entries() : Object.entries(value)) {
    const here = [...path, String(key).replaceAll(NUL, "\\u0000")];
    if (String(key).includes(NUL)) return here.join(".");
    const found = findNulCharacter(item, here, depth + 1);
    if (found !== undefined) return found;
  }
  return undefined;
}

/** The parameters an object schema takes at `path` (under nested objects), when it is one. */
function knownKeys(schema: z.ZodType | undefined, path: readonly PropertyKey[]): string[] {
  let current: unknown = schema;
  for (const segment of path) {
    const shape = shapeOf(current);
    if (!shape) return [];
    current = shape[String(segment)];
  }
  return Object.keys(shapeOf(current) ?? {});
}

function shapeOf(schema: unknown): Record<string, unknown> | undefined {
  let current = schema as { shape?: Record<string, unknown>; unwrap?: () => unknown; def?: { innerType?: unknown; in?: unknown; out?: unknown } } | undefined;
  // Optional, nullable, default and pipe wrappers around an object.
  for (let depth = 0; current && depth < 8; depth++) {
    if (current.shape && typeof current.shape === "object") return current.shape;
    const next = current.def?.innerType ?? current.def?.in ?? (typeof current.unwrap === "function" ? current.unwrap() : undefined);
    if (!next || next === current) return undefined;
    current = next as typeof current;
  }
  return undefined;
}

/** Levenshtein distance, cut off above `limit`. */
function distance(a: string, b: string, limit: number): number {
  if (Math.abs(a.length - b.length) > limit) return limit + 1;
  let previous = Array.from({ length: b.length + 1 }, (_, index) => index);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) row[j] = Math.min(previous[j]! + 1, row[j - 1]! + 1, previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    previous = row;
  }
  return previous[b.length]!;
}

/** The known parameter an unknown one is closest to (a typo, another letter case), if one is close. */
export function closestKey(unknown: string, known: readonly string[]): string | undefined {
  const lower = unknown.toLowerCase();
  const caseOnly = known.find((key) => key.toLowerCase() === lower);
  if (caseOnly) return caseOnly;
  const limit = unknown.length <= 4 ? 1 : 2;
  let best: { key: string; distance: number } | undefined;
  for (const key of known) {
    const d = distance(lower, key.toLowerCase(), limit);
    if (d <= limit && (!best || d < best.distance)) best = { key, distance: d };
  }
  return best?.key;
}

function describeIssue(issue: z.core.$ZodIssue, schema?: z.ZodType): { parameter: string; reason: string } {
  const path = issue.path.map(String).join(".");
  if (issue.code === "unrecognized_keys") {
    const [key = "?", ...others] = issue.keys;
    const known = knownKeys(schema, issue.path);
    const suggestion = closestKey(key, known);
    const reason = [
      `unknown parameter${suggestion ? ` (did you mean ${suggestion}?)` : ""}`,
      ...(others.length > 0 ? [`also unknown: ${others.join(", ")}`] : []),
    ].join("; ");
    return { parameter: path ? `${path}.${key}` : key, reason };
  }
  const parameter = path || "body";
  // A missing field fails its type or enum check; say so instead of listing what it should be.
  if ((issue.code === "invalid_type" || issue.code === "invalid_value") && "input" in issue && issue.input === undefined) {
    return { parameter, reason: "is required" };
  }
  return { parameter, reason: issue.message };
}

export function issueToApiError(issue: z.core.$ZodIssue, schema?: z.ZodType): ApiError {
  const { parameter, reason } = describeIssue(issue, schema);
  return invalidParameter(parameter, reason);
}

/**
 * Parses `input` or throws the ApiError for its problem: an unknown parameter first (a misspelt one
 * also makes the parameter it was meant to be "required"), else the first issue.
 */
export function parseInput<Schema extends z.ZodType>(schema: Schema, input: unknown): z.output<Schema> {
  const withNul = findNulCharacter(input);
  if (withNul !== undefined) throw invalidParameter(withNul, "must not contain the NUL character (U+0000)");
  const result = schema.safeParse(input, { reportInput: true });
  if (result.success) return result.data;
  const issue = result.error.issues.find((candidate) => candidate.code === "unrecognized_keys") ?? result.error.issues[0];
  if (!issue) throw invalidParameter("body", "is not valid");
  throw issueToApiError(issue, schema);
}
