// Issue 10 item 1 with kept-alive connections (issue 37): notifications reuse a connection per
// receiver, and the egress guard holds for every connection: each new one is made through the
// checked lookup to the address it checked (DNS pinning), so a name whose answer changes to a
// private address ("DNS rebinding") is refused at the next connection, and a connection checked
// under one policy is never used under another. Real connections to receivers on 127.0.0.1 (the
// suite runs in a network namespace with loopback only); DNS answers come from a stand-in for
// dns.lookup, the one resolver the checked lookup uses.
import dns from "node:dns";
import http from "node:http";
import type net from "node:net";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { postToMerchant } from "@/lib/egress/post-to-merchant";
import type { EgressPolicy } from "@/lib/egress/egress-policy";
import { deliverNotificationAttempt } from "@/lib/notifications/deliver-notification-attempt";
import { enqueueNotification } from "@/lib/notifications/enqueue-notification";
import { createTestMerchant, type TestMerchant } from "@/tests/helpers/merchant-factories";
import { useTestDatabase } from "@/tests/helpers/test-database";

useTestDatabase();

let merchant: TestMerchant;
const closers: Array<() => void> = [];
const realLookup = dns.lookup;

beforeAll(async () => {
  merchant = await createTestMerchant();
});
afterEach(() => {
  dns.lookup = realLookup;
  for (const close of closers.splice(0)) close();
});

/** A receiver on 127.0.0.1 answering 200 "ok", counting the connections and requests it got. */
async function receiver() {
  const sockets: net.Socket[] = [];
  let requests = 0;
  const server = http.createServer((request, response) => {
    request.resume();
    request.on("end", () => {
      requests++;
      response.writeHead(200, { "content-type": "text/plain" }).end("ok");
    });
  });
  server.on("connection", (socket) => sockets.push(socket));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  closers.push(() => {
    server.closeAllConnections();
    server.close();
  });
  return {
    port: (server.address() as net.AddressInfo).port,
    connections: () => sockets.length,
    requests: () => requests,
    /** Closes the kept connections from the receiver's side (as a receiver's idle timeout does). */
    hangUp: () => server.closeAllConnections(),
  };
}

/** DNS answers for `name` from `answers` in turn (the last one repeats); other names resolve as usual. Counts look-ups. */
function resolveAs(name: string, answers: string[]) {
  let lookups = 0;
  dns.lookup = ((
    hostname: string,
    options: dns.LookupAllOptions,
    callback: (error: Error | null, addresses: dns.LookupAddress[]) => void,
  ) => {
    if (hostname !== name) return (realLookup as (...args: unknown[]) => void)(hostname, options, callback);
    const address = answers[Math.min(lookups, answers.length - 1)]!;
    lookups++;
    process.nextTick(() => callback(null, [{ address, family: 4 }]));
  }) as unknown as typeof dns.lookup;
  return { lookups: () => lookups };
}

async function deliver(url: string) {
  const notificationId = await enqueueNotification({
    merchantId: merchant.merchantId,
    mode: "test" as const,
    kind: "test",
    url,
    body: { type: "test" },
  });
  const outcome = await deliverNotificationAttempt({ notificationId, attemptNumber: 1, timeoutMs: 5_000 });
  const attempt = await db().notificationAttempt.findFirstOrThrow({ where: { notificationId }, select: { error: true } });
  return { ...outcome, storedError: attempt.error };
}

describe("kept-alive connections to receivers", () => {
  it("notifications to one receiver reuse one connection", async () => {
    const target = await receiver();
    for (let index = 0; index < 4; index++) {
      expect(await deliver(`http://127.0.0.1:${target.port}/notify/${index}`)).toMatchObject({ delivered: true, statusCode: 200 });
    }
    expect(target.requests()).toBe(4);
    expect(target.connections()).toBe(1);
  });

  it("item 1 (DNS rebinding): a name is looked up once per connection and connected to at the address checked; when its answer turns private, the next connection is refused", async () => {
    const target = await receiver();
    const dnsAnswers = resolveAs("rebind.merchant.test", ["127.0.0.1", "10.0.0.7"]);
    const url = `http://rebind.merchant.test:${target.port}/notify`;
    expect(await deliver(url)).toMatchObject({ delivered: true, statusCode: 200 });
    expect(await deliver(url)).toMatchObject({ delivered: true, statusCode: 200 });
    // One look-up for the one connection: the socket did not resolve the name again.
    expect(dnsAnswers.lookups()).toBe(1);
    expect(target.connections()).toBe(1);
    // The receiver closes the kept connection; the name now answers a private address.
    target.hangUp();
    await new Promise((resolve) => setTimeout(resolve, 100));
    const refused = await deliver(url);
    expect(refused).toMatchObject({ delivered: false, error: "destination not allowed", storedError: "destination not allowed" });
    expect(dnsAnswers.lookups()).toBe(2);
    // Nothing more reached the receiver (and nothing could reach 10.0.0.7: no route in this namespace).
    expect(target.requests()).toBe(2);
  });

  it("item 1: a connection checked under one policy is not used under another", async () => {
    const target = await receiver();
    resolveAs("policy.merchant.test", ["127.0.0.1"]);
    const url = `http://policy.merchant.test:${target.port}/notify`;
    const loopbackAllowed: EgressPolicy = { requireHttps: false, allowLoopback: true, allowedNetworks: [] };
    const loopbackRefused: EgressPolicy = { requireHttps: false, allowLoopback: false, allowedNetworks: [] };
    const send = (policy: EgressPolicy) =>
      postToMerchant({ url, headers: { "content-type": "application/json" }, body: "{}", timeoutMs: 5_000, policy });
    expect(await send(loopbackAllowed)).toMatchObject({ statusCode: 200, error: null });
    // The kept connection to 127.0.0.1 stays open, yet the stricter policy gets none of it.
    expect(await send(loopbackRefused)).toEqual({ statusCode: null, responseExcerpt: null, error: "destination not allowed" });
    expect(target.requests()).toBe(1);
    expect(target.connections()).toBe(1);
  });
});
