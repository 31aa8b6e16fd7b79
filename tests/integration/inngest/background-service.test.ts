// The executor as the service's background service: it syncs with /api/inngest on the service's
// PORT over loopback and its polls feed the health check.
import { serve } from "inngest/next";
import { eventType } from "inngest";
import { afterAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { backgroundStatus, clearExecutorHeartbeat } from "@/lib/inngest/executor-status";
import { db } from "@/lib/db";
import { resetConfig } from "@/lib/env";
import { inngest } from "@/lib/inngest/client";
import { localServeUrl, runningEmbeddedExecutor, startEmbeddedExecutor, stopEmbeddedExecutor } from "@/lib/inngest/start-embedded-executor";
import { sendEvent } from "@/lib/inngest/send-event";
import { serveOnHttp, type MountedRoute } from "@/tests/helpers/serve-on-http";
import { useTestDatabase } from "@/tests/helpers/test-database";
import { eventually } from "@/tests/helpers/eventually";

useTestDatabase();

const hello = eventType("test/hello", { schema: z.object({ who: z.string() }) });
const sayHello = inngest.createFunction({ id: "say-hello", triggers: [hello] }, async ({ event, step }) =>
  step.run("greet", () => `hello ${event.data.who}`),
);

let route: MountedRoute | undefined;
const savedPort = process.env.PORT;
afterAll(async () => {
  await stopEmbeddedExecutor();
  await route?.close();
  if (savedPort === undefined) delete process.env.PORT;
  else process.env.PORT = savedPort;
  resetConfig();
});

describe("the embedded executor service", () => {
  it("reports no heartbeat before it starts, then runs functions served on PORT and keeps health ok", async () => {
    clearExecutorHeartbeat();
    expect(backgroundStatus().status).toBe("error");
    route = await serveOnHttp({ handlers: serve({ client: inngest, functions: [sayHello] }) });
    process.env.PORT = new URL(route.url).port;
    resetConfig();
    expect(localServeUrl()).toBe(route.url);

    await startEmbeddedExecutor();
    expect(runningEmbeddedExecutor()).toBeDefined();
    await sendEvent({ type: hello, data: { who: "world" }, id: "hello-1" });
    const run = await eventually(
      async () => {
        const found = await db().inngestRun.findFirst({ where: { functionId: "card-payment-service-say-hello" } });
        return found?.status === "completed" && found;
      },
      { timeoutMs: 20_000, intervalMs: 50, onTimeout: "return" },
    );
    expect(run?.output).toBe("hello world");
    expect(backgroundStatus()).toEqual({ status: "ok", msg: "" });
  });
});
