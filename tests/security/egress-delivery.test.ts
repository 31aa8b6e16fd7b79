// Issue 10 items 1 and 2 at delivery time: what the service does when it POSTs a notification to a
// merchant's address. Real connections to receivers on 127.0.0.1 (the suite runs in a network
// namespace with loopback only), through the one delivery attempt every notification uses.
import http from "node:http";
import net from "node:net";
import { gzipSync } from "node:zlib";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { deliverNotificationAttempt } from "@/lib/notifications/deliver-notification-attempt";
import { enqueueNotification } from "@/lib/notifications/enqueue-notification";
import { createTestMerchant, type TestMerchant } from "@/tests/helpers/merchant-factories";
import { freePort } from "@/tests/helpers/service-process";
import { useTestDatabase } from "@/tests/helpers/test-database";
import { restoreEnvAfterEach, runAsProduction } from "@/tests/helpers/production-mode";
import { quietFor } from "../helpers/eventually";

useTestDatabase();
restoreEnvAfterEach();

let merchant: TestMerchant;
const closers: Array<() => void> = [];

beforeAll(async () => {
  merchant = await createTestMerchant();
});
afterEach(() => {
  for (const close of closers.splice(0)) close();
});

async function listen(server: net.Server): Promise<number> {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  closers.push(() => {
    if ("closeAllConnections" in server) (server as http.Server).closeAllConnections();
    server.close();
  });
  return (server.address() as net.AddressInfo).port;
}

/** A TCP listener that counts connections (and speaks whatever `onConnection` does). */
async function tcpListener(onConnection: (socket: net.Socket) => void = () => undefined) {
  const sockets: net.Socket[] = [];
  const server = net.createServer((socket) => {
    sockets.push(socket);
    socket.on("error", () => undefined);
    onConnection(socket);
  });
  const port = await listen(server);
  closers.push(() => sockets.forEach((socket) => socket.destroy()));
  return { port, connections: () => sockets.length };
}

async function deliver(url: string, timeoutMs = 5_000) {
  const notificationId = await enqueueNotification({ merchantId: merchant.merchantId, mode: "test" as const, kind: "test", url, body: { type: "test" } });
  const outcome = await deliverNotificationAttempt({ notificationId, attemptNumber: 1, timeoutMs });
  const attempt = await db().notificationAttempt.findFirstOrThrow({ where: { notificationId }, select: { error: true, responseBody: true, statusCode: true } });
  return { ...outcome, responseBody: attempt.responseBody, storedError: attempt.error };
}

describe("destinations", () => {
  it("item 1: in production a host name that resolves to loopback (localhost) is never connected to: the attempt fails with 'destination not allowed'", async () => {
    const listener = await tcpListener();
    runAsProduction();
    const outcome = await deliver(`https://localhost:${listener.port}/notify`);
    expect(outcome.error).toBe("destination not allowed");
    expect(outcome.storedError).toBe("destination not allowed");
    expect(listener.connections()).toBe(0);
  });

  it("item 1: in production a stored http:// or loopback address (saved before the rules) is not reached either", async () => {
    const listener = await tcpListener();
    runAsProduction();
    for (const url of [`http://127.0.0.1:${listener.port}/notify`, `https://[::ffff:127.0.0.1]:${listener.port}/`]) {
      const outcome = await deliver(url);
      expect({ url, error: outcome.error }).toEqual({ url, error: "destination not allowed" });
    }
    expect(listener.connections()).toBe(0);
  });

  it("item 1: a closed port, an open port that hangs up and an open port speaking another protocol give the same error text", async () => {
    const closed = await freePort();
    const hangsUp = await tcpListener((socket) => socket.destroy());
    const ssh = await tcpListener((socket) => socket.write("SSH-2.0-OpenSSH_9.6\r\n"));
    const redis = await tcpListener((socket) => socket.end("-ERR unknown command 'POST'\r\n"));
    const errors = [];
    for (const port of [closed, hangsUp.port, ssh.port, redis.port]) errors.push((await deliver(`http://127.0.0.1:${port}/notify`)).error);
    expect(errors).toEqual(["could not connect", "could not connect", "could not connect", "could not connect"]);
    expect(hangsUp.connections() + ssh.connections() + redis.connections()).toBeGreaterThanOrEqual(3);
  });

  it("item 1: a redirect is not followed (the address it points to gets nothing)", async () => {
    const target = await tcpListener();
    const redirecting = http.createServer((request, response) => {
      response.writeHead(302, { location: `http://127.0.0.1:${target.port}/internal` }).end();
    });
    const port = await listen(redirecting);
    const outcome = await deliver(`http://127.0.0.1:${port}/notify`);
    expect(outcome).toMatchObject({ delivered: false, statusCode: 302, error: "answered HTTP 302; only 200 acknowledges" });
    expect(target.connections()).toBe(0);
  });
});

describe("answers", () => {
  it("item 2: asks for an uncompressed answer, keeps 512 characters and stops reading a 100 MB answer", async () => {
    let acceptEncoding: string | undefined;
    let written = 0;
    let finished = false;
    const server = http.createServer((request, response) => {
      acceptEncoding = request.headers["accept-encoding"];
      request.resume();
      response.writeHead(200, { "content-type": "text/plain" });
      const chunk = Buffer.alloc(64 * 1024, "a");
      const pump = () => {
        while (written < 100 * 1024 * 1024) {
          written += chunk.length;
          if (!response.write(chunk)) return void response.once("drain", pump);
        }
        finished = true;
        response.end();
      };
      response.on("close", () => undefined);
      pump();
    });
    const port = await listen(server);
    const outcome = await deliver(`http://127.0.0.1:${port}/notify`);
    expect(outcome).toMatchObject({ delivered: true, statusCode: 200 });
    expect(acceptEncoding).toBe("identity");
    expect(outcome.responseBody).toBe("a".repeat(512));
    await quietFor(200, "the hang-up reaches the sending server");
    expect(finished).toBe(false); // the service hung up long before the 100 MB were sent
    expect(written).toBeLessThan(20 * 1024 * 1024);
  });

  it("item 2: a gzip answer (sent although identity was asked) is never inflated", async () => {
    const bomb = gzipSync(Buffer.alloc(20 * 1024 * 1024));
    const server = http.createServer((request, response) => {
      request.resume();
      response.writeHead(200, { "content-type": "text/plain", "content-encoding": "gzip", "content-length": bomb.length }).end(bomb);
    });
    const port = await listen(server);
    const outcome = await deliver(`http://127.0.0.1:${port}/notify`);
    expect(outcome).toMatchObject({ delivered: true, statusCode: 200 });
    expect(outcome.responseBody).toBeNull();
  });
});
