// LOG_FORMAT=json (the production default): every line the start writes on stdout is one JSON
// object: its own steps, the embedded database, each migration applied, Next.js's banner and the
// start summary (event start.ready). Started as an operator starts it (scripts/start.ts, the
// source of dist/start.js), on a fresh embedded database so that the migrations run and print.
import { rmSync } from "node:fs";
import { mkdtempSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { eventually } from "../helpers/eventually";
import { startService, type ServiceProcess } from "../helpers/service-process";

let service: ServiceProcess | undefined;
const dataDir = mkdtempSync(path.join(os.tmpdir(), "cps-json-start-"));

afterAll(async () => {
  await service?.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

describe("npm start with LOG_FORMAT=json", () => {
  it("writes only JSON lines on stdout, the migration lines and the start summary included", async () => {
    // LOG_LEVEL=info: the test runner's NODE_ENV=test would make the default warn and hide the steps.
    service = await startService({
      dataDir,
      env: { LOG_FORMAT: "json", LOG_LEVEL: "info", NODE_ENV: undefined },
      timeoutMs: 600_000,
    });
    const running = service;
    await eventually(() => running.stdout().includes('"start.ready"'), { timeoutMs: 120_000, intervalMs: 250, onTimeout: "return" });
    const lines = service.stdout().split("\n").filter((line) => line.trim() !== "");
    const notJson = lines.filter((line) => {
      try {
        return typeof JSON.parse(line) !== "object";
      } catch {
        return true;
      }
    });
    expect(notJson, `lines on stdout that are not JSON:\n${notJson.join("\n")}`).toEqual([]);
    const entries = lines.map((line) => JSON.parse(line) as Record<string, unknown>);
    const messages = entries.map((entry) => String(entry.msg ?? ""));
    expect(messages.some((msg) => /migration/i.test(msg) && /appl/i.test(msg)), messages.join("\n")).toBe(true);
    expect(messages).toContain("Card Payment Service is running");
    const ready = entries.find((entry) => entry.event === "start.ready")!;
    expect(ready).toMatchObject({ healthy: true, baseUrl: expect.stringMatching(/^http:\/\//), component: "start" });
  }, 900_000);
});
