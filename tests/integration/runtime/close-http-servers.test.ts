// Graceful shutdown closes the process's HTTP servers promptly although a client (a load balancer's
// health check) keeps a kept-alive connection busy with a request every few milliseconds, and lets a
// request in flight finish first.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { describe, expect, it } from "vitest";
import { closeHttpServers } from "@/lib/runtime/graceful-shutdown";
import { quietFor } from "@/tests/helpers/eventually";

describe("closeHttpServers", () => {
  it("closes a server whose kept-alive connection is polled every 20 ms well before the bound, after the slow request in flight", async () => {
    const server = http.createServer((req, res) => {
      if (req.url === "/slow") setTimeout(() => res.end("slow done"), 400);
      else res.end("ok");
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    const get = (path: string) =>
      new Promise<string>((resolve, reject) => {
        http
          .get(`${base}${path}`, { agent }, (res) => {
            let body = "";
            res.on("data", (chunk) => (body += chunk));
            res.on("end", () => resolve(body));
          })
          .on("error", reject);
      });
    let polling = true;
    const poller = (async () => {
      while (polling) {
        await get("/ready").catch(() => undefined);
        await quietFor(20, "between two readiness probes");
      }
    })();
    const slowAgent = new http.Agent({ keepAlive: true });
    const slow = new Promise<string>((resolve) => http.get(`${base}/slow`, { agent: slowAgent }, (res) => res.on("data", (c) => resolve(String(c)))));
    await quietFor(100, "the slow request is in flight");

    const startedAt = Date.now();
    await closeHttpServers(5_000);
    const took = Date.now() - startedAt;
    polling = false;
    await poller;
    agent.destroy();
    slowAgent.destroy();

    expect(await slow).toBe("slow done");
    expect(server.listening).toBe(false);
    expect(took).toBeLessThan(2_000);
  });
});
