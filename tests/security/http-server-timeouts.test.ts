// Security review 3, L7: `next start` left Node's defaults (300 s to receive a request, 60 s for its
// headers, no connection cap), so a client trickling a body could hold a socket for five minutes.
// Against the real service with HTTP_REQUEST_TIMEOUT_MS=3000: a body sent one byte a second is cut
// off well before a minute (Node checks on its 30-second sweep), and a normal request still works.
import net from "node:net";
import { rmSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startService, type ServiceProcess } from "@/tests/helpers/service-process";

const ROOT = path.resolve(import.meta.dirname, "../..");
let service: ServiceProcess;
const dataDir = path.join(ROOT, ".data-test", `timeouts-${process.pid}-${Date.now()}`);

beforeAll(async () => {
  service = await startService({ dataDir, env: { HTTP_REQUEST_TIMEOUT_MS: "3000", HTTP_HEADERS_TIMEOUT_MS: "2000" } });
  // The limits are applied on a server's first request.
  expect((await fetch(`${service.baseUrl}/api/health/live`)).status).toBe(200);
}, 600_000);

afterAll(async () => {
  await service?.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

/** Sends a POST whose body trickles one byte a second; resolves with how long the server kept the socket. */
function trickle(limitMs: number): Promise<{ closedAfterMs: number | null; answer: string }> {
  return new Promise((resolve) => {
    const started = Date.now();
    const socket = net.connect(service.port, "127.0.0.1");
    let answer = "";
    const finish = (closed: boolean) => {
      clearInterval(timer);
      socket.destroy();
      resolve({ closedAfterMs: closed ? Date.now() - started : null, answer });
    };
    socket.on("data", (chunk) => (answer += chunk.toString()));
    socket.on("close", () => finish(true));
    socket.on("error", () => undefined);
    // The sign-in endpoint reads its (capped) body before anything else: it waits for the bytes.
    socket.write(`POST /api/auth/callback/credentials HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: 10000\r\n\r\n`);
    const timer = setInterval(() => socket.write("a"), 1_000);
    setTimeout(() => finish(false), limitMs);
  });
}

describe("L7: slow clients are cut off", () => {
  it("L7: a body trickled one byte a second is cut off within the request time-out and Node's 30 s sweep", async () => {
    const { closedAfterMs, answer } = await trickle(45_000);
    console.log(`[L7] trickled body: socket closed after ${closedAfterMs} ms; answer ${JSON.stringify(answer.split("\r\n")[0])}`);
    expect(closedAfterMs).not.toBeNull();
    expect(closedAfterMs!).toBeLessThan(40_000);
  }, 60_000);

  it("L7: a normal request is answered as before", async () => {
    const response = await fetch(`${service.baseUrl}/api/health/live`);
    expect(response.status).toBe(200);
  });
});
