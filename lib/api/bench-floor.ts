// The framework floors of `npm run bench -- merchant-api` (issue 14): what a Next.js route handler in
// this very production build costs with nothing of ours in it, so that the merchant API's figures are
// read as ratios to them, measured in the same run:
//  - /api/bench-floor/json: a constant JSON answer;
//  - /api/bench-floor/insert: the same, after one INSERT through the service's own Prisma client
//    (adapter-pg, same pool), into the table `bench_floor` that the benchmark creates.
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
  if (name === "insert") {
    let body: string;
    try {
      body = await readLimitedText(request, MAX_BODY_BYTES);
    } catch (error) {
      if (error instanceof BodyTooLargeError)
        return new Response(JSON.stringify({ error: "PAYLOAD_TOO_LARGE" }), {
          status: 413,
          headers: { "Content-Type": "application/json" },
        });
      throw error;
    }
    const id = newId();
    await db().$executeRaw`INSERT INTO bench_floor (id, body) VALUES (${id}, ${body})`;
    return new Response(JSON.stringify({ responseid: id }), { status: 200, headers: { "Content-Type": "application/json" } });
  }
  return notFound.GET(request);
}

/** Handlers for every method of app/api/bench-floor/[[...floor]]: only POST json / insert, and only with the flag. */
export function benchFloorRoutes(): Record<"GET" | "HEAD" | "POST" | "PUT" | "PATCH" | "DELETE" | "OPTIONS", typeof floor> {
  return { GET: floor, HEAD: floor, POST: floor, PUT: floor, PATCH: floor, DELETE: floor, OPTIONS: floor };
}
