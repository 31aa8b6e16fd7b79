// The demo merchant's sensible notification address: a fresh local start gives it the service's own
// demo receiver (/demo-shop/notifications), which verifies Standard Webhooks signatures with the demo
// merchant's secret and acknowledges with 200; a notification sent there by the real delivery code
// over HTTP is delivered and shows as such in Developers > Notifications. In production there is no
// receiver. The address follows the base URL across restarts but never replaces one the merchant chose.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { enqueueNotification } from "@/lib/notifications/enqueue-notification";
import { deliverNotificationAttempt } from "@/lib/notifications/deliver-notification-attempt";
import { signNotification } from "@/lib/notifications/sign-notification";
import { listNotifications } from "@/lib/backoffice/queries/list-notifications";
import { prepareDemo } from "@/lib/sandboxes/prepare-demo";
import { receiveDemoNotification } from "@/lib/sandboxes/demo-receiver";
import { createTestMerchant, signingSecretOf } from "@/tests/helpers/merchant-factories";
import { useTestDatabase } from "@/tests/helpers/test-database";
import { setEnv } from "@/tests/helpers/set-env";
import { toWebRequest, writeWebResponse } from "@/tests/helpers/web-request-bridge";

useTestDatabase();

const saved = { ...process.env };
let dataDir: string;
let server: http.Server;
let base: string;

beforeAll(async () => {
  // The route handler of app/demo-shop/notifications on real HTTP at 127.0.0.1: the service's base URL.
  const route = await import("@/app/demo-shop/notifications/route");
  server = http.createServer(async (req, res) => {
    const url = new URL(req.url ?? "/", `http://${req.headers.host}`);
    if (url.pathname !== "/demo-shop/notifications" || req.method !== "POST") return void res.writeHead(404).end();
    await writeWebResponse(res, await route.POST(await toWebRequest(req, url)));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  dataDir = mkdtempSync(path.join(tmpdir(), "cps-demo-receiver-"));
  setEnv({ DATA_DIR: dataDir, PUBLIC_BASE_URL: base, NODE_ENV: "test", CPS_LOCAL: undefined });
});

afterAll(async () => {
  setEnv({ DATA_DIR: saved.DATA_DIR, PUBLIC_BASE_URL: saved.PUBLIC_BASE_URL, NODE_ENV: saved.NODE_ENV, CPS_LOCAL: saved.CPS_LOCAL });
  await new Promise<void>((resolve) => server?.close(() => resolve()));
  rmSync(dataDir, { recursive: true, force: true });
});

const demo = () => JSON.parse(readFileSync(path.join(dataDir, "demo.json"), "utf8")) as { merchantId: string };
const demoAddress = async () => (await db().merchant.findUniqueOrThrow({ where: { id: demo().merchantId }, select: { testDefaultNotificationUrl: true } })).testDefaultNotificationUrl;

function signedRequest(secret: string, body: string, tamper?: (body: string) => string): Request {
  const headers = signNotification({ secret, id: "msg_demo_receiver_test", body });
  return new Request(`${base}/demo-shop/notifications`, {
    method: "POST",
    headers: { ...headers, "content-type": "application/json", "x-cps-notification-kind": "capture" },
    body: tamper ? tamper(body) : body,
  });
}

describe("the demo merchant's notification address", () => {
  it("a fresh start sets it to the service's demo receiver, and the start banner names it", async () => {
    const lines = await prepareDemo({ log: () => undefined });
    expect(await demoAddress()).toBe(`${base}/demo-shop/notifications`);
    expect(lines.join("\n")).toContain(`${base}/demo-shop/notifications`);
  });

  it("a capture notification sent by the delivery code is verified and acknowledged, and shows delivered in the notification log", async () => {
    const merchantId = demo().merchantId;
    const url = await demoAddress();
    const id = await enqueueNotification({ merchantId, mode: "test" as const, kind: "capture", url: url!, body: { responseid: "r".repeat(32), status: "approved", amount: 5000 } });
    const result = await deliverNotificationAttempt({ notificationId: id, attemptNumber: 1 });
    expect(result).toMatchObject({ delivered: true, statusCode: 200, error: null });
    const { rows } = await listNotifications({ merchantId, mode: "test" as const, filters: { kind: "capture" } });
    expect(rows.find((row) => row.id === id)).toMatchObject({ state: "delivered", attemptCount: 1, lastAttempt: { statusCode: 200 } });
  });

  it("the receiver refuses a forged or altered notification and another merchant's, with 401", async () => {
    const notificationSecret = await signingSecretOf(demo().merchantId);
    const body = JSON.stringify({ responseid: "x".repeat(32), status: "approved", mode: "test" });
    expect((await receiveDemoNotification(signedRequest(notificationSecret, body))).status).toBe(200);
    // Signed with the test secret but saying live (or nothing): refused.
    for (const other of [{ mode: "live" }, {}]) {
      const wrong = JSON.stringify({ responseid: "x".repeat(32), status: "approved", ...other });
      expect((await receiveDemoNotification(signedRequest(notificationSecret, wrong))).status).toBe(401);
    }
    expect((await receiveDemoNotification(signedRequest(notificationSecret, body, (text) => text.replace("approved", "declined")))).status).toBe(401);
    const other = await createTestMerchant();
    expect((await receiveDemoNotification(signedRequest(other.notificationSecret, body))).status).toBe(401);
    const unsigned = new Request(`${base}/demo-shop/notifications`, { method: "POST", body });
    expect((await receiveDemoNotification(unsigned)).status).toBe(401);
  });

  it("a restart on another base URL moves the demo address along; an address the merchant chose is kept", async () => {
    setEnv({ PUBLIC_BASE_URL: "http://localhost:3999" });
    try {
      await prepareDemo({ log: () => undefined });
      expect(await demoAddress()).toBe("http://localhost:3999/demo-shop/notifications");
      await db().merchant.update({ where: { id: demo().merchantId }, data: { testDefaultNotificationUrl: "http://127.0.0.1:3998/my-receiver" } });
      await prepareDemo({ log: () => undefined });
      expect(await demoAddress()).toBe("http://127.0.0.1:3998/my-receiver");
      await db().merchant.update({ where: { id: demo().merchantId }, data: { testDefaultNotificationUrl: null } });
      await prepareDemo({ log: () => undefined });
      expect(await demoAddress()).toBeNull();
    } finally {
      setEnv({ PUBLIC_BASE_URL: base });
    }
  });

  it("in production there is no demo receiver", async () => {
    const secrets = { SESSION_SECRET: "s".repeat(40), CARD_DATA_KEY: Buffer.alloc(32, 7).toString("base64"), API_KEY_SECRET: "k".repeat(40) };
    const previous = { NODE_ENV: process.env.NODE_ENV, SESSION_SECRET: process.env.SESSION_SECRET, CARD_DATA_KEY: process.env.CARD_DATA_KEY, API_KEY_SECRET: process.env.API_KEY_SECRET };
    const notificationSecret = await signingSecretOf(demo().merchantId);
    setEnv({ NODE_ENV: "production", ...secrets });
    try {
      expect((await receiveDemoNotification(signedRequest(notificationSecret, "{}"))).status).toBe(404);
    } finally {
      setEnv(previous);
    }
  });
});
