// Decision 0239: in embedded mode the session-expiry sweep runs where the executor runs (a worker or
// an all-in-one process), not in a web process, which would only repeat the worker's query every
// second. Real processes started as an operator starts them (npm start with ROLE, the production
// build) on the test database: an expired window stays open beside a web process alone, and a
// worker process closes it (TIMED_OUT) within seconds and the merchant gets its time-out notification.
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { secretsEnv } from "@/tests/helpers/set-env";
import { eventually } from "@/tests/helpers/eventually";
import { startNotificationReceiver, type NotificationReceiver } from "@/tests/helpers/notification-receiver";
import { startService, type ServiceProcess } from "@/tests/helpers/service-process";
import { createTestMerchant, createTestSession } from "@/tests/helpers/session-factory";
import { useTestDatabase } from "@/tests/helpers/test-database";

const database = useTestDatabase();
const dataDir = mkdtempSync(path.join(os.tmpdir(), "cps-session-sweep-roles-"));
const services: ServiceProcess[] = [];
let receiver: NotificationReceiver | undefined;

afterAll(async () => {
  for (const service of services) await service.stop();
  await receiver?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

const statusOf = async (id: string) => (await db().paymentSession.findUniqueOrThrow({ where: { id }, select: { status: true } })).status;

describe("the session-expiry sweep in embedded mode", { timeout: 600_000 }, () => {
  it("a web process leaves an expired window to the worker, which closes it and notifies the merchant", async () => {
    receiver = await startNotificationReceiver();
    const merchant = await createTestMerchant("Sweep Roles Shop");
    const session = await createTestSession(merchant.id, {
      timeoutSeconds: 1,
      expiresAt: new Date(Date.now() - 1_000),
      notificationUrl: `${receiver.url}/completion`,
    });
    // This process's secrets: the merchant's signing secret, sealed here, is opened by the worker.
    const env = { DATABASE_URL: database.current().url, ...secretsEnv() };
    services.push(await startService({ dataDir, env: { ...env, ROLE: "web" }, timeoutMs: 300_000 }));
    // Three of the sweep's one-second ticks with only the web process up: the window stays open.
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    expect(await statusOf(session.id)).toBe("OPEN");

    services.push(await startService({ dataDir, env: { ...env, ROLE: "worker" }, timeoutMs: 300_000 }));
    await eventually(async () => (await statusOf(session.id)) === "TIMED_OUT", { timeoutMs: 30_000, intervalMs: 200, what: "the worker to close the window" });
    const [notification] = await receiver.waitFor(1, 30_000);
    expect(notification?.body).toMatchObject({ sessionid: session.id, status: "timeout" });
  });
});
