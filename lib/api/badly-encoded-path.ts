// A request path that cannot be percent-decoded into UTF-8, or that decodes to a control character,
// names no resource: it is refused with the spec's 400 body (section 7) naming the path parameter,
// and a request id, like every other refusal. Answered at the HTTP server's edge (instrumentation.ts),
// before Next's route matcher would fail on it with a plain 500.
import { NextResponse } from "next/server";
import { invalidParameter } from "../errors";
import { newId } from "../ids";

/** The parameter a path segment stands for, so the description names it (spec section 7). */
function parameterAt(segments: string[], index: number): string {
  const [root] = segments;
  if (root === "api" && index === 1) return "paymentid";
  if (root === "dynamic" && index === 1) return "sessionid";
  if (root === "dynamic" && index === 3) return "paymentid";
  return "path";
}

/** Why a segment names nothing: not UTF-8 once decoded, or a control character (PostgreSQL refuses NUL in text). */
function segmentProblem(segment: string): string | undefined {
  let decoded: string;
  try {
    decoded = decodeURIComponent(segment);
  } catch {
    return "is not valid percent-encoded UTF-8";
  }
  return /[\u0000-\u001f\u007f]/.test(decoded) ? "must not contain control characters" : undefined;
}

/** The refusal of a badly encoded path, ready to be written on any server's response. */
export interface BadlyEncodedPathRefusal {
  status: 400;
  headers: Record<string, string>;
  body: string;
}

/**
 * The 400 refusal for a path with a segment that is not valid percent-encoded UTF-8 or that decodes
 * to a control character; undefined for any other path.
 */
export function badlyEncodedPathRefusal(pathname: string): BadlyEncodedPathRefusal | undefined {
  if (!pathname.includes("%")) return undefined;
  const segments = pathname.split("/").slice(1);
  const problems = segments.map(segmentProblem);
  const bad = problems.findIndex((problem) => problem !== undefined);
  if (bad === -1) return undefined;
  return {
    status: 400,
    headers: { "Content-Type": "application/json", "Cache-Control": "no-store", "X-Request-Id": newId() },
    body: JSON.stringify(invalidParameter(parameterAt(segments, bad), problems[bad]!).toBody()),
  };
}

/** The same refusal as a web Response (for callers that speak fetch). */
export function badlyEncodedPathAnswer(pathname: string): NextResponse | undefined {
  const refusal = badlyEncodedPathRefusal(pathname);
  return refusal && new NextResponse(refusal.body, { status: refusal.status, headers: refusal.headers });
}
