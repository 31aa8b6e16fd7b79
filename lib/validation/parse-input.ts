// Runs a zod schema over merchant input and turns the first problem into the spec's
// INVALID_PARAMETER with an errordescription that names the parameter and the reason.
import type { z } from "zod";
import { invalidParameter, type ApiError } from "../errors";

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
  const result = schema.safeParse(input, { reportInput: true });
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  if (!issue) throw invalidParameter("body", "is not valid");
  throw issueToApiError(issue);
}
