// The Inngest floor as one process (decision 0235): scripts/bench/background-floor.mjs with
// FLOOR_SDK_BUNDLE, the compiled scripts/bench/lib/floor-sdk-call.ts, makes one complete call of the
// trivial Inngest function for every job it works off, besides the job's own work (claim, acquirer
// call, result, signed notification, attempt), on the tables FLOOR_TABLES names; a bundle it cannot
// load stops it before it says ready, so that the bench never reads a floor without its SDK call as
// one with it. Run as the bench runs it: `node scripts/bench/background-floor.mjs`, on PostgreSQL
// (LISTEN/NOTIFY and SKIP LOCKED, as the bench's database).
import { spawn, type ChildProcess } from "node:child_process";
import { rmSync } from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildScript } from "@/scripts/build/server-scripts.mjs";
import { eventually } from "@/tests/helpers/eventually";
import { startNotificationReceiver } from "@/tests/helpers/notification-receiver";
import { defaultEngine, useTestDatabase } from "@/tests/helpers/test-database";

const onPostgres = defaultEngine() === "postgres";
const database = useTestDatabase();
const TABLES = "test_floor";
const bundle = path.resolve(`dist/bench/floor-sdk-call-test-${process.pid}.js`);

/** The acquirer's side of the floor's call: approves every capture, as the Clearhaus sandbox does a valid one, and records its path. */
function approvingAcquirer(): Promise<{ url: string; paths: string[]; close(): Promise<void> }> {
  const paths: string[] = [];
  const server = http.createServer((request, response) => {
    paths.push(request.url ?? "");
    request.resume();
    request.on("end", () => response.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ status: { code: 20000 } })));
  });
  return new Promise((resolve) =>
    server.listen(0, "127.0.0.1", () =>
      resolve({
        url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
        paths,
        close: () => new Promise<void>((done) => server.close(() => done())),
      }),
    ),
  );
}

/** The floor in its own process group; resolves once it printed "ready", rejects if it exits first. */
function startFloor(env: Record<string, string>): Promise<{ child: ChildProcess; output: () => string; exit: Promise<number | null> }> {
  const child = spawn(process.execPath, [path.resolve("scripts/bench/background-floor.mjs")], {
    stdio: ["ignore", "pipe", "pipe"],
    detached: true,
    env: { ...process.env, ...env },
  });
  let output = "";
  child.stdout!.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on("data", (chunk: Buffer) => (output += chunk.toString()));
  const exit = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  return new Promise((resolve, reject) => {
    child.stdout!.on("data", () => output.includes("ready") && resolve({ child, output: () => output, exit }));
    void exit.then((code) => reject(new Error(`the floor exited with ${code}: ${output}`)));
  });
}

describe.skipIf(!onPostgres)("the Inngest floor as one process", () => {
  let client: pg.Client;
  beforeAll(async () => {
    await buildScript(process.cwd(), "scripts/bench/lib/floor-sdk-call.ts", bundle);
    client = new pg.Client({ connectionString: database.current().url });
    await client.connect();
    // As scripts/bench/inngest.ts creates them.
    await client.query(`CREATE TABLE ${TABLES}_job (
      id text PRIMARY KEY, payment_id text NOT NULL, authorization_id text NOT NULL, amount bigint NOT NULL, notify_url text NOT NULL,
      created_at timestamptz NOT NULL DEFAULT clock_timestamp(), claimed_at timestamptz, status text, response_code int, finished_at timestamptz)`);
    await client.query(`CREATE TABLE ${TABLES}_attempt (
      id bigserial PRIMARY KEY, job_id text NOT NULL REFERENCES ${TABLES}_job (id), attempt_number int NOT NULL,
      started_at timestamptz NOT NULL, duration_ms int NOT NULL, status_code int, response_body text)`);
  }, 60_000);
  afterAll(async () => {
    await client?.end();
    rmSync(bundle, { force: true });
    rmSync(`${bundle}.map`, { force: true });
  });

  it("makes one complete SDK call per job and does each job's whole work", async () => {
    const acquirer = await approvingAcquirer();
    const receiver = await startNotificationReceiver();
    const floor = await startFloor({
      FLOOR_DATABASE_URL: database.current().url,
      FLOOR_ACQUIRER_URL: acquirer.url,
      FLOOR_API_KEY: "floor-key",
      FLOOR_TABLES: TABLES,
      FLOOR_SDK_BUNDLE: bundle,
    });
    try {
      for (const n of [1, 2, 3])
        await client.query(
          `WITH "job" AS (INSERT INTO ${TABLES}_job (id, payment_id, authorization_id, amount, notify_url) VALUES ($1, $2, $3, 1000, $4) RETURNING id)
           SELECT pg_notify('${TABLES}', id) FROM "job"`,
          [`job_${n}`, `pay_${n}`, `auth_${n}`, receiver.url],
        );
      await eventually(
        async () => (await client.query<{ n: number }>(`SELECT count(*)::int AS "n" FROM ${TABLES}_attempt`)).rows[0]!.n === 3,
        { what: () => `three attempts recorded (the floor said: ${floor.output()})` },
      );
      const { rows: jobs } = await client.query(`SELECT id, status, response_code FROM ${TABLES}_job ORDER BY id`);
      expect(jobs).toEqual([1, 2, 3].map((n) => ({ id: `job_${n}`, status: "approved", response_code: 20000 })));
      expect([...acquirer.paths].sort()).toEqual([1, 2, 3].map((n) => `/authorizations/auth_${n}/captures`));
      expect(receiver.received).toHaveLength(3);
      for (const notification of receiver.received) expect(notification.headers["webhook-signature"]).toMatch(/^v1,/);
    } finally {
      process.kill(-floor.child.pid!, "SIGTERM");
      await floor.exit;
      await Promise.all([acquirer.close(), receiver.close()]);
    }
    expect(floor.output()).toContain("stopped: 3 jobs, 3 SDK calls");
  }, 60_000);

  it("does not start when its SDK bundle cannot be loaded", async () => {
    await expect(
      startFloor({
        FLOOR_DATABASE_URL: database.current().url,
        FLOOR_ACQUIRER_URL: "http://127.0.0.1:9",
        FLOOR_TABLES: TABLES,
        FLOOR_SDK_BUNDLE: path.resolve("dist/bench/no-such-bundle.js"),
      }),
    ).rejects.toThrow(/the floor exited with 1/);
  });
});
