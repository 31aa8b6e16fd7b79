// The benchmark's Next.js floors (/api/bench-floor/*, lib/api/bench-floor.ts) exist for nobody but
// `npm run bench`: without BENCH_FLOORS=1 every method answers exactly the 404 of an unknown /api/
// path and writes nothing; with it, only POST json and POST insert answer.
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { resetConfig } from "@/lib/env";
import * as floorRoute from "@/app/api/bench-floor/[[...floor]]/route";
import * as catchAll from "@/app/api/[paymentid]/[...rest]/route";
import { useTestDatabase } from "@/tests/helpers/test-database";

useTestDatabase();

const METHODS = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"] as const;

function call(method: (typeof METHODS)[number], segments: string[], route: Record<string, unknown> = floorRoute) {
  const path = `/api/bench-floor/${segments.join("/")}`;
  const request = new Request(`http://127.0.0.1${path}`, {
    method,
    body: method === "GET" || method === "HEAD" ? undefined : JSON.stringify({ amount: 1 }),
  });
  const handler = route[method] as (request: Request, context: { params: Promise<unknown> }) => Promise<Response> | Response;
  return handler(request, { params: Promise.resolve({ floor: segments, paymentid: "bench-floor", rest: segments }) });
}

function setFlag(value: string | undefined): void {
  if (value === undefined) delete process.env.BENCH_FLOORS;
  else process.env.BENCH_FLOORS = value;
  resetConfig();
}

beforeAll(async () => {
  await db().$executeRawUnsafe(`CREATE TABLE bench_floor (id text PRIMARY KEY, body text NOT NULL, created_at timestamptz NOT NULL DEFAULT now())`);
});
afterEach(() => setFlag(undefined));

describe("the benchmark floor routes", () => {
  it("answer every method with the unknown-path 404 and write nothing when BENCH_FLOORS is unset or 0", async () => {
    for (const flag of [undefined, "0"]) {
      setFlag(flag);
      for (const method of METHODS) {
        for (const segments of [["json"], ["insert"], ["other"], []]) {
          const response = await call(method, segments);
          const expected = await call(method, segments, catchAll);
          expect(response.status, `${method} ${segments.join("/")}`).toBe(404);
          expect(response.status).toBe(expected.status);
          if (method !== "HEAD") expect(await response.json()).toEqual(await expected.json());
        }
      }
    }
    const [{ count }] = await db().$queryRawUnsafe<[{ count: bigint }]>(`SELECT count(*) AS count FROM bench_floor`);
    expect(Number(count)).toBe(0);
  });

  it("with BENCH_FLOORS=1 answer POST json with a constant and POST insert after one INSERT, and nothing else", async () => {
    setFlag("1");
    const json = await call("POST", ["json"]);
    expect(json.status).toBe(200);
    expect(await json.json()).toEqual({ ok: true, floor: "next" });
    const insert = await call("POST", ["insert"]);
    expect(insert.status).toBe(200);
    const { responseid } = (await insert.json()) as { responseid: string };
    const rows = await db().$queryRawUnsafe<{ body: string }[]>(`SELECT body FROM bench_floor WHERE id = $1`, responseid);
    expect(rows).toEqual([{ body: JSON.stringify({ amount: 1 }) }]);
    expect((await call("GET", ["json"])).status).toBe(404);
    expect((await call("POST", ["other"])).status).toBe(404);
    expect((await call("POST", ["json", "extra"])).status).toBe(404);
  });
});
