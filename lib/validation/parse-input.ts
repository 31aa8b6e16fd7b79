// Runs a zod schema over merchant input and turns the first problem into the spec's
// INVALID_PARAMETER with an errordescription that names the parameter and the reason. A string that
// holds U+0000 is refused first, whatever field it is in: PostgreSQL cannot store it, and a free-text
// field would otherwise fail its INSERT with a 500 (security review 4, M3).
import type { z } from "zod";
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

function describeIssue(issue: z.core.$ZodIssue): { parameter: string; reason: string } {
  const path = issue.path.map(String).join(".");
  if (issue.code === "unrecognized_keys") {
    const key = issue.keys[0] ?? "?";
    return { parameter: path ? `${path}.${key}` : key, reason: "unknown parameter" };
  }
  const parameter = path || "body";
  // A missing field fails its type or enum check; say so instead of listing what it should be.
  if ((issue.code === "invalid_type" || issue.code === "invalid_value") && "input" in issue && issue.input === undefined) {
    return { parameter, reason: "is required" };
  }
  return { parameter, reason: issue.message };
}

export function issueToApiError(issue: z.core.$ZodIssue): ApiError {
  const { parameter, reason } = describeIssue(issue);
  return invalidParameter(parameter, reason);
}

/** Parses `input` or throws the ApiError for its first issue. */
export function parseInput<Schema extends z.ZodType>(schema: Schema, input: unknown): z.output<Schema> {
  const withNul = findNulCharacter(input);
  if (withNul !== undefined) throw invalidParameter(withNul, "must not contain the NUL character (U+0000)");
  const result = schema.safeParse(input, { reportInput: true });
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  if (!issue) throw invalidParameter("body", "is not valid");
  throw issueToApiError(issue);
}
