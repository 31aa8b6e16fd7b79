// A worker process runs no Next.js (decision 0219): its own small HTTP server (lib/jobs/worker-server.ts)
// answers its health endpoints, /metrics and the executor's /api/inngest. Started the way an operator
// does (`npm start` with ROLE=worker), this proves that the worker serves nothing else (no merchant
// API, no back office), that its executor is running (readiness needs it polling), and that its
// /api/inngest holds the same bounds as a Next.js process's (security review 3, H1): 401 before an
// unsigned body is read, three unsigned 16 MB POSTs grow it by less than 20 MB, a forged signature's
// declared 16 MB is refused 413 unread.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readFileSync } from "node:fs";
import { growthDuring, idleRss, MB, upload } from "@/tests/helpers/attack-requests";
import { SERVICE_NODE_FLAGS } from "@/lib/runtime/service-node-flags";
import { pidListeningOn } from "@/tests/helpers/process-memory";
import { startService, stopServiceAndRemoveData, testDataDir, type ServiceProcess } from "@/tests/helpers/service-process";
import { eventually, quietFor } from "../helpers/eventually";

let worker: ServiceProcess;
let workerPid: number;
const dataDir = testDataDir("worker-surface");

beforeAll(async () => {
  worker = await startService({ dataDir, env: { ROLE: "worker" } });
  workerPid = pidListeningOn(worker.port)!;
  expect(workerPid).toBeGreaterThan(0);
}, 600_000);

afterAll(() => stopServiceAndRemoveData(worker, dataDir));

describe("a worker process (ROLE=worker) without Next.js", () => {
  it("is the worker script, not a Next.js server, and says what it serves", async () => {
    const commandLine = readFileSync(`/proc/${workerPid}/cmdline`, "utf8").split("\0").join(" ");
    expect(commandLine).toMatch(/worker(\.js|\.ts)?\b/);
    expect(commandLine).not.toMatch(/next/);
    // The launcher prints its summary once the worker's health has settled.
    await eventually(() => worker.stdout().includes("Card Payment Service worker is running"), { timeoutMs: 30_000, onTimeout: "return" });
    expect(worker.stdout()).toContain("Card Payment Service worker is running");
    expect(worker.stdout()).toContain("served by web processes");
  });

  it("runs with the service's Node flags before its script, as the launcher gives them (decision 0232)", () => {
    // The worker keeps its command line (a Next.js server overwrites its own with its title).
    const argv = readFileSync(`/proc/${workerPid}/cmdline`, "utf8").split("\0").filter(Boolean);
    const script = argv.findIndex((arg) => /worker(\.js|\.ts)?$|run-script\.mjs$/.test(arg));
    expect(script, argv.join(" ")).toBeGreaterThan(0);
    expect(argv.slice(1, script)).toEqual([...SERVICE_NODE_FLAGS]);
  });

  it("is ready once its executor polls, and live; HEAD answers without a body", async () => {
    const ready = await fetch(`${worker.baseUrl}/api/health/ready`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toMatchObject({ ready: true, role: "worker", checks: { executor: { status: "ok" } } });
    const live = await fetch(`${worker.baseUrl}/api/health/live`, { method: "HEAD" });
    expect(live.status).toBe(200);
    expect(await live.text()).toBe("");
    const health = await fetch(`${worker.baseUrl}/api/health`);
    expect(health.status).toBe(200);
    expect(health.headers.get("cache-control")).toBe("no-store");
  });

  it("serves its metrics (open on a local run, as in a Next.js process)", async () => {
    const metrics = await fetch(`${worker.baseUrl}/metrics`);
    expect(metrics.status).toBe(200);
    expect(await metrics.text()).toMatch(/^# HELP cps_/m);
  });

  it("answers 404 in the API's error shape for the merchant API, the back office and any other path", async () => {
    for (const [method, path] of [
      ["POST", "/api/initdynamic"],
      ["GET", "/backoffice"],
      ["GET", "/dynamic.js"],
      ["GET", "/api/health/../../etc/passwd"],
    ] as const) {
      const answer = await fetch(`${worker.baseUrl}${path}`, { method, ...(method === "POST" ? { body: "{}" } : {}) });
      expect({ path, status: answer.status }).toEqual({ path, status: 404 });
      expect(await answer.json()).toMatchObject({ error: "NOT_FOUND" });
    }
  });

  it("answers 405 with Allow to a method an endpoint does not take, and OPTIONS with Allow", async () => {
    const refused = await fetch(`${worker.baseUrl}/api/health`, { method: "DELETE" });
    expect(refused.status).toBe(405);
    expect(refused.headers.get("allow")).toBe("GET, HEAD, OPTIONS");
    expect(await refused.json()).toMatchObject({ error: "METHOD_NOT_ALLOWED" });
    const options = await fetch(`${worker.baseUrl}/api/inngest`, { method: "OPTIONS" });
    expect(options.status).toBe(204);
    expect(options.headers.get("allow")).toBe("GET, POST, PUT, HEAD, OPTIONS");
  });
});

describe("H1 on a worker process: /api/inngest reads no body it has not bounded", () => {
  it("H1: a POST without a signature is answered 401 before its body ends (chunked, 4 KB then a 3 s pause)", async () => {
    const answer = await upload({
      port: worker.port,
      path: "/api/inngest?fnId=x&stepId=step",
      bytes: 8 * 1024,
      chunked: true,
      chunkBytes: 4 * 1024,
      pauseAfterBytes: 4 * 1024,
      pauseMs: 3_000,
      headers: { "content-type": "application/json" },
    });
    expect({ status: answer.status, early: answer.answeredBeforeEnd }).toEqual({ status: 401, early: true });
  });

  it("H1: three unsigned 16 MB POSTs grow the worker by less than 20 MB and are each answered 401", async () => {
    await quietFor(1_000, "the worker's start settles before idle is measured");
    const idle = await idleRss(workerPid);
    let statuses: number[] = [];
    const growth = await growthDuring(workerPid, idle, async () => {
      const answers = await Promise.all(
        [0, 1, 2].map(() => upload({ port: worker.port, path: "/api/inngest?fnId=x&stepId=step", bytes: 16 * MB, headers: { "content-type": "application/json" } })),
      );
      statuses = answers.map((answer) => answer.status);
    });
    console.log(`[H1 worker] three unsigned 16 MB POSTs: peak growth ${(growth / MB).toFixed(1)} MB`);
    expect(statuses).toEqual([401, 401, 401]);
    expect(growth).toBeLessThan(20 * MB);
  });

  it("H1: with a well-formed (forged) signature, a declared 16 MB body is refused 413 before it is read", async () => {
    // Paused after 64 KB: an answer in the pause was not waiting for the rest.
    const answer = await upload({
      port: worker.port,
      path: "/api/inngest?fnId=x&stepId=step",
      bytes: 16 * MB,
      pauseAfterBytes: 64 * 1024,
      pauseMs: 2_000,
      headers: { "content-type": "application/json", "x-inngest-signature": `t=${Math.floor(Date.now() / 1000)}&s=${"ab".repeat(32)}` },
    });
    expect({ status: answer.status, early: answer.answeredBeforeEnd }).toEqual({ status: 413, early: true });
  });
});
