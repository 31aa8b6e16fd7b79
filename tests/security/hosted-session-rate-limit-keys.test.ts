// Security review 3, M1: the hosted fields' per-session rate limiter counted the raw `{sessionid}` path
// segment before anything checked it, so every request with a new 15 KB id left a 15 KB key in memory
// for a minute (1,500 such POSTs grew the server by 299 MB, still +280 MB a minute later). Against
// the real service: malformed ids are refused before they are counted or kept, the server grows less
// than 10 MB under that attack, a flood of well-formed random ids stays within the limiter's key
// bound, and a real session is still limited.
import { randomBytes } from "node:crypto";
import http from "node:http";
import { readFileSync, rmSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { growthDuring, idleRss, MB } from "@/tests/helpers/attack-requests";
import { pidListeningOn, rssBytes } from "@/tests/helpers/process-memory";
import { startService, type ServiceProcess } from "@/tests/helpers/service-process";
import { quietFor } from "../helpers/eventually";

const ROOT = path.resolve(import.meta.dirname, "../..");
const ALLOWED_GROWTH = 10 * MB;

let service: ServiceProcess;
let serverPid: number;
let idle: number;
const dataDir = path.join(ROOT, ".data-test", `session-limit-${process.pid}-${Date.now()}`);
const agent = new http.Agent({ keepAlive: true, maxSockets: 16 });

function post(pathname: string, headers: Record<string, string> = {}): Promise<number> {
  return new Promise((resolve, reject) => {
    const request = http.request(
      {
        host: "127.0.0.1",
        port: service.port,
        path: pathname,
        method: "POST",
        agent,
        headers: { "content-type": "application/json", "content-length": 2, ...headers },
      },
      (response) => {
        response.resume();
        response.on("end", () => resolve(response.statusCode ?? 0));
      },
    );
    request.on("error", reject);
    request.end("{}");
  });
}

/** Sends `count` POSTs built by `pathFor`, 16 at a time; returns the statuses seen. */
async function flood(count: number, pathFor: (index: number) => string): Promise<Set<number>> {
  const statuses = new Set<number>();
  let next = 0;
  await Promise.all(
    Array.from({ length: 16 }, async () => {
      while (next < count) statuses.add(await post(pathFor(next++)));
    }),
  );
  return statuses;
}

/** 15,000 random characters a path segment may hold (letters and digits). */
function longRandomId(): string {
  return randomBytes(11_250).toString("base64url").replace(/[-_]/g, "a").slice(0, 15_000);
}

beforeAll(async () => {
  // A web process (ROLE=web), as the hosted fields are served in production: the measurement is of
  // what the attack costs, not of the embedded executor's background work, whose first cron passes
  // load their own modules at any moment (55 MB in one CI run, counted as the attack's growth).
  service = await startService({ dataDir, env: { ROLE: "web" } });
  serverPid = pidListeningOn(service.port)!;
  expect(serverPid).toBeGreaterThan(0);
  // Warm up the route modules the attack takes, then measure idle.
  await flood(50, () => `/dynamic/${"0".repeat(32)}/pay`);
  await flood(50, () => `/dynamic/${longRandomId()}/pay`);
  await quietFor(2_000, "the warm-up's work settles before idle is measured");
  idle = await idleRss(serverPid);
}, 600_000);

afterAll(async () => {
  agent.destroy();
  await service?.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

describe("M1: the hosted-field rate limiter keeps no key for a malformed session id", () => {
  it("M1: 1,500 POST /dynamic/{15 KB random id}/pay are refused 404 and grow the server by less than 10 MB, during and after", async () => {
    let statuses = new Set<number>();
    const growth = await growthDuring(serverPid, idle, async () => {
      statuses = await flood(1_500, () => `/dynamic/${longRandomId()}/pay`);
    });
    await quietFor(3_000, "what the flood left behind is released, or shown retained");
    const retained = rssBytes(serverPid) - idle;
    console.log(`[M1] 1,500 x 15 KB ids: peak growth ${(growth / MB).toFixed(1)} MB, retained ${(retained / MB).toFixed(1)} MB`);
    expect([...statuses]).toEqual([404]);
    expect(growth).toBeLessThan(ALLOWED_GROWTH);
    expect(retained).toBeLessThan(ALLOWED_GROWTH);
  });

  it("M1: the same holds on /payments, /authorize and /abort-challenge", async () => {
    const long = longRandomId();
    for (const pathname of [
      `/dynamic/${long}/payments`,
      `/dynamic/${long}/payments/abc/authorize`,
      `/dynamic/${long}/payments/abc/abort-challenge`,
    ]) {
      expect({ pathname: pathname.slice(-30), status: await post(pathname) }).toEqual({ pathname: pathname.slice(-30), status: 404 });
    }
  });

  it("M1: a real session is still limited per minute (429 past RATE_LIMIT_SESSION_PER_MINUTE)", async () => {
    const demo = JSON.parse(readFileSync(path.join(dataDir, "demo.json"), "utf8")) as { merchantId: string; apiKey: string };
    const opened = await fetch(`${service.baseUrl}/api/initdynamic`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Basic ${demo.apiKey}` },
      body: JSON.stringify({ merchantid: demo.merchantId, amount: 100, currency: "DKK" }),
    });
    const { sessionid } = (await opened.json()) as { sessionid: string };
    const statuses: number[] = [];
    for (let index = 0; index < 65; index++) statuses.push(await post(`/dynamic/${sessionid}/payments`));
    expect(statuses.slice(0, 60).every((status) => status !== 429)).toBe(true);
    expect(statuses.slice(60)).toContain(429);
  });
});
