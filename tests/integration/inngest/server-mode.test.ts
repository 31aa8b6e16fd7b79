// With an Inngest server configured, events go to that server's event API and nothing is stored
// for the embedded executor; the serve endpoint follows the SDK's own mode. Outbox events
// (sendEventInTransaction) take the same path as in embedded mode: a row committed with the change,
// then forwarded from the table (issue 29).
import http from "node:http";
import type { AddressInfo } from "node:net";
import { eventType } from "inngest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { db } from "@/lib/db";
import { config, resetConfig } from "@/lib/env";
import { inngest } from "@/lib/inngest/client";
import { runningEmbeddedExecutor, startEmbeddedExecutor } from "@/lib/inngest/start-embedded-executor";
import { sendEvent, sendEventInTransaction } from "@/lib/inngest/send-event";
import { startEventRelayService, stopEventRelayService } from "@/lib/inngest/event-relay";
import { useTestDatabase } from "@/tests/helpers/test-database";
import { eventually } from "@/tests/helpers/eventually";

useTestDatabase();

const received: { url: string; body: unknown }[] = [];
/** While set, the fake server answers 500: the forward fails and the rows stay. */
let serverDown = false;
let server: http.Server;
let saved: string | undefined;

beforeAll(async () => {
  server = http.createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    if (serverDown) return void res.writeHead(500, { "content-type": "application/json" }).end('{"error":"down"}');
    received.push({ url: req.url ?? "", body: JSON.parse(Buffer.concat(chunks).toString("utf8")) });
    res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ ids: ["01SERVEREVENT0000000000000"], status: 200 }));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  saved = process.env.INNGEST_DEV;
  process.env.INNGEST_DEV = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  resetConfig();
  inngest.setEnvVars(process.env); // the SDK reads its variables when the client is made
});

afterAll(async () => {
  if (saved === undefined) delete process.env.INNGEST_DEV;
  else process.env.INNGEST_DEV = saved;
  resetConfig();
  inngest.setEnvVars(process.env);
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

const pinged = eventType("test/ping", { schema: z.object({ n: z.number() }) });

describe("server mode", () => {
  it("is chosen by INNGEST_DEV, and sendEvent posts to the server's event API instead of the database", async () => {
    expect(config().inngestMode).toBe("server");
    const id = await sendEvent({ type: pinged, data: { n: 1 }, id: "ping-1" });
    expect(id).toBe("01SERVEREVENT0000000000000");
    expect(received).toHaveLength(1);
    expect(received[0]?.url).toMatch(/^\/e\//);
    expect(received[0]?.body).toEqual([expect.objectContaining({ name: "test/ping", data: { n: 1 }, id: "ping-1" })]);
    expect(await db().inngestEvent.count()).toBe(0);
  });

  it("does not start the embedded executor", async () => {
    await startEmbeddedExecutor();
    expect(runningEmbeddedExecutor()).toBeUndefined();
  });

  it("stores an outbox event with the change, forwards it from the table after the commit, and deletes it", async () => {
    received.length = 0;
    const afterCommit = await db().$transaction((tx) => sendEventInTransaction(tx, { type: pinged, data: { n: 2 }, id: "ping-outbox-2" }));
    expect(await db().inngestEvent.count({ where: { idempotencyKey: "ping-outbox-2" } })).toBe(1);
    await afterCommit();
    expect(received.map((request) => request.body)).toEqual([
      [expect.objectContaining({ name: "test/ping", data: { n: 2 }, id: "ping-outbox-2" })],
    ]);
    expect(await db().inngestEvent.count()).toBe(0);
  });

  it("leaves the row when the server is down, and the relay forwards it once it is back", async () => {
    received.length = 0;
    serverDown = true;
    const afterCommit = await db().$transaction((tx) => sendEventInTransaction(tx, { type: pinged, data: { n: 3 }, id: "ping-outbox-3" }));
    await afterCommit(); // logged, not thrown: the change stands
    expect(received).toEqual([]);
    expect(await db().inngestEvent.count({ where: { idempotencyKey: "ping-outbox-3" } })).toBe(1);
    // A change rolled back stores nothing to forward.
    await expect(
      db().$transaction(async (tx) => {
        await sendEventInTransaction(tx, { type: pinged, data: { n: 4 }, id: "ping-outbox-4" });
        throw new Error("rolled back");
      }),
    ).rejects.toThrow("rolled back");
    serverDown = false;
    await startEventRelayService();
    try {
      await eventually(async () => (await db().inngestEvent.count()) === 0, { timeoutMs: 15_000, intervalMs: 50, onTimeout: "return" });
      expect(await db().inngestEvent.count()).toBe(0);
      expect(received.map((request) => request.body)).toEqual([[expect.objectContaining({ id: "ping-outbox-3", data: { n: 3 } })]]);
    } finally {
      await stopEventRelayService();
    }
  });
});
