// The benchmark's Next.js floors (/api/bench-floor/*, lib/api/bench-floor.ts) exist for nobody but
// `npm run bench`: without BENCH_FLOORS=1 every method answers exactly the 404 of an unknown /api/
// path and writes nothing; with it, only POST json, POST insert and POST job answer.
import pg from "pg";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { resetConfig } from "@/lib/env";
import * as floorRoute from "@/app/api/bench-floor/[[...floor]]/route";
import * as catchAll from "@/app/api/[paymentid]/[...rest]/route";
import { eventually } from "@/tests/helpers/eventually";
import { useTestDatabase } from "@/tests/helpers/test-database";

const database = useTestDatabase();

const METHODS = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"] as const;

function call(method: (typeof METHODS)[number], segments: string[], route: Record<string, unknown> = floorRoute, body: unknown = { amount: 1 }) {
  const path = `/api/bench-floor/${segments.join("/")}`;
  const request = new Request(`http://127.0.0.1${path}`, {
    method,
    body: method === "GET" || method === "HEAD" ? undefined : typeof body === "string" ? body : JSON.stringify(body),
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
  // As scripts/bench/inngest.ts creates it.
  await db().$executeRawUnsafe(`CREATE TABLE bench_floor_job (
    id text PRIMARY KEY, payment_id text NOT NULL, authorization_id text NOT NULL, amount bigint NOT NULL, notify_url text NOT NULL,
    created_at timestamptz NOT NULL DEFAULT clock_timestamp(), claimed_at timestamptz, status text, response_code int, finished_at timestamptz)`);
});
afterEach(() => setFlag(undefined));

describe("the benchmark floor routes", () => {
  it("answer every method with the unknown-path 404 and write nothing when BENCH_FLOORS is unset or 0", async () => {
    for (const flag of [undefined, "0"]) {
      setFlag(flag);
      for (const method of METHODS) {
        for (const segments of [["json"], ["insert"], ["job"], ["other"], []]) {
          const response = await call(method, segments);
          const expected = await call(method, segments, catchAll);
          expect(response.status, `${method} ${segments.join("/")}`).toBe(404);
          expect(response.status).toBe(expected.status);
          if (method !== "HEAD") expect(await response.json()).toEqual(await expected.json());
        }
      }
    }
    for (const table of ["bench_floor", "bench_floor_job"]) {
      const [{ count }] = await db().$queryRawUnsafe<[{ count: bigint }]>(`SELECT count(*) AS count FROM ${table}`);
      expect(Number(count), table).toBe(0);
    }
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

  it("with BENCH_FLOORS=1 answer POST job after one INSERT of a job row that notifies the background floor, and refuse a body without its fields", async () => {
    setFlag("1");
    // The background floor's wake-up: one notification per job, with the job's id.
    const listener = new pg.Client({ connectionString: database.current().url });
    await listener.connect();
    const heard: string[] = [];
    listener.on("notification", (message) => message.channel === "bench_floor" && heard.push(message.payload ?? ""));
    await listener.query("LISTEN bench_floor");
    const answer = await call("POST", ["job"], floorRoute, { authorization: "auth_1", notificationurl: "http://127.0.0.1:9/notify" });
    expect(answer.status).toBe(200);
    const { responseid } = (await answer.json()) as { responseid: string };
    await eventually(() => heard.length > 0, { what: "the job's notification" });
    expect(heard).toEqual([responseid]);
    await listener.end();
    const rows = await db().$queryRawUnsafe<{ payment_id: string; authorization_id: string; amount: bigint; notify_url: string; claimed_at: Date | null }[]>(
      `SELECT payment_id, authorization_id, amount, notify_url, claimed_at FROM bench_floor_job WHERE id = $1`,
      responseid,
    );
    expect(rows).toEqual([{ payment_id: `pay_${responseid}`, authorization_id: "auth_1", amount: 1n, notify_url: "http://127.0.0.1:9/notify", claimed_at: null }]);
    for (const body of ["not json", { authorization: "auth_1" }, { authorization: 1, notificationurl: "http://127.0.0.1:9/notify" }, null]) {
      const refused = await call("POST", ["job"], floorRoute, body === null ? "null" : body);
      expect(refused.status, JSON.stringify(body)).toBe(400);
      expect(await refused.json()).toEqual({ error: "BAD_REQUEST" });
    }
    const [{ count }] = await db().$queryRawUnsafe<[{ count: bigint }]>(`SELECT count(*) AS count FROM bench_floor_job`);
    expect(Number(count)).toBe(1);
  });
});
