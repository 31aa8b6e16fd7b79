// The framework floors of `npm run bench -- merchant-api` (issue 14): what a Next.js route handler in
// this very production build costs with nothing of ours in it, so that the merchant API's figures are
// read as ratios to them, measured in the same run:
//  - /api/bench-floor/json: a constant JSON answer;
//  - /api/bench-floor/insert: the same, after one INSERT through the service's own Prisma client
//    (adapter-pg, same pool), into the table `bench_floor` that the benchmark creates;
//  - /api/bench-floor/job: the insert floor with background work behind it (npm run bench --
//    inngest): one INSERT of a job row with its pg_notify, in one statement, into the table
//    `bench_floor_job` that the background floor (scripts/bench/background-floor.mjs) claims and
//    works off. Body: {"authorization": "<sandbox authorization id>", "notificationurl": "<url>"};
//    the least any capture with its background work can cost on the machine.
// Nobody else may reach them: without BENCH_FLOORS=1 (lib/env.ts) every method answers 404 NOT_FOUND
// exactly as an unknown /api/ path does (tests/integration/api/bench-floor.test.ts), and production refuses
// the flag at start (lib/env.ts).
import { db } from "../db";
import { config } from "../env";
import { BodyTooLargeError, readLimitedText } from "../http/read-limited-body";
import { newId } from "../ids";
import { notFoundRoutes } from "./unmatched-api-route";

const notFound = notFoundRoutes();
const CONSTANT = JSON.stringify({ ok: true, floor: "next" });
/** The merchant API's own cap (lib/api/merchant-route.ts): the floor reads what an API request may send. */
const MAX_BODY_BYTES = 64 * 1024;

type RouteContext = { params: Promise<{ floor?: string[] }> };

async function floor(request: Request, context: RouteContext): Promise<Response> {
  if (!config().BENCH_FLOORS || request.method !== "POST") return notFound.GET(request);
  const segments = (await context.params).floor ?? [];
  const name = segments.length === 1 ? segments[0] : undefined;
  if (name === "json") {
    return new Response(CONSTANT, { status: 200, headers: { "Content-Type": "application/json" } });
  }
  if (name === "insert" || name === "job") {
    let body: string;
    try {
      body = await readLimitedText(request, MAX_BODY_BYTES);
    } catch (error) {
      if (error instanceof BodyTooLargeError) return Response.json({ error: "PAYLOAD_TOO_LARGE" }, { status: 413 });
      throw error;
    }
    const id = newId();
    if (name === "insert") await db().$executeRaw`INSERT INTO bench_floor (id, body) VALUES (${id}, ${body})`;
    else {
      const job = jobOf(body);
      if (!job) return Response.json({ error: "BAD_REQUEST" }, { status: 400 });
      await db().$executeRaw`WITH "job" AS (
        INSERT INTO bench_floor_job (id, payment_id, authorization_id, amount, notify_url)
        VALUES (${id}, ${`pay_${id}`}, ${job.authorization}, 1, ${job.notificationurl}) RETURNING id)
        SELECT pg_notify('bench_floor', id) FROM "job"`;
    }
    return new Response(JSON.stringify({ responseid: id }), { status: 200, headers: { "Content-Type": "application/json" } });
  }
  return notFound.GET(request);
}

/** The job floor's body, or undefined when it is not one (no zod here: a floor carries nothing it does not need). */
function jobOf(body: string): { authorization: string; notificationurl: string } | undefined {
  let value: unknown;
  try {
    value = JSON.parse(body);
  } catch {
    return undefined;
  }
  const { authorization, notificationurl } = (value ?? {}) as Record<string, unknown>;
  return typeof authorization === "string" && typeof notificationurl === "string" ? { authorization, notificationurl } : undefined;
}

/** Handlers for every method of app/api/bench-floor/[[...floor]]: only POST json / insert / job, and only with the flag. */
export function benchFloorRoutes(): Record<"GET" | "HEAD" | "POST" | "PUT" | "PATCH" | "DELETE" | "OPTIONS", typeof floor> {
  return { GET: floor, HEAD: floor, POST: floor, PUT: floor, PATCH: floor, DELETE: floor, OPTIONS: floor };
}
