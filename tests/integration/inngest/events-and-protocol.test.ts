// Event intake (ids, dedupe, step.sendEvent), parallel steps, signature checks of the serve
// endpoint and the runs list, all over real HTTP on a real database.
import canonicalize from "canonicalize";
import { eventType } from "inngest";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { runCliCommand } from "@/lib/cli/commands";
import { db } from "@/lib/db";
import { inngest } from "@/lib/inngest/client";
import { signatureHeader } from "@cps/inngest-embedded";
import { listRuns } from "@/lib/inngest/list-runs";
import { sendEvent } from "@/lib/inngest/send-event";
import { embeddedSigningKey } from "@/lib/inngest/signing-key";
import { useInngestHarnesses } from "@/tests/helpers/inngest-harness";
import { useTestDatabase } from "@/tests/helpers/test-database";

useTestDatabase();

const harnesses = useInngestHarnesses();

const orderPlaced = eventType("test/order.placed", { schema: z.object({ orderId: z.string() }) });
const orderShipped = eventType("test/order.shipped", { schema: z.object({ orderId: z.string(), parcels: z.number() }) });
const started: string[] = [];
const placeOrder = inngest.createFunction({ id: "place-order", triggers: [orderPlaced] }, async ({ event, step }) => {
  const [parcels, label] = await Promise.all([
    step.run("count-parcels", () => (started.push(event.data.orderId), event.data.orderId.length)),
    step.run("print-label", () => `label-${event.data.orderId}`),
  ]);
  await step.sendEvent("announce", orderShipped.create({ orderId: event.data.orderId, parcels }, { id: `shipped-${event.data.orderId}` }));
  return { parcels, label };
});
const shipments: unknown[] = [];
const recordShipment = inngest.createFunction({ id: "record-shipment", triggers: [orderShipped] }, async ({ event }) => {
  shipments.push(event.data);
  return event.data.parcels;
});

describe("events", () => {
  it("start one run per triggered function; an event id seen before starts nothing new", async () => {
    const harness = await harnesses.start({ functions: [placeOrder, recordShipment] });
    const first = await sendEvent({ type: orderPlaced, data: { orderId: "o-123" }, id: "order-o-123" });
    const repeated = await sendEvent({ type: orderPlaced, data: { orderId: "o-123" }, id: "order-o-123" });
    expect(repeated).toBe(first);
    const batch = await inngest.send([
      { name: "test/order.placed", data: { orderId: "o-9" }, id: "order-o-9" },
      { name: "test/order.placed", data: { orderId: "o-9" }, id: "order-o-9" },
    ]);
    expect(batch.ids[0]).toBe(batch.ids[1]);

    await harness.runUntilIdle();
    const run = await harness.waitForRun({ eventId: first, status: "completed" });
    expect(run.output).toEqual({ parcels: 5, label: "label-o-123" });
    expect(started.filter((id) => id === "o-123")).toHaveLength(1);
    expect(await db().inngestRun.count({ where: { functionId: "card-payment-service-place-order" } })).toBe(2);
    expect(await db().inngestEvent.count({ where: { name: "test/order.placed" } })).toBe(2);

    // Parallel steps are planned, run one by one and memoized in completion order; then the
    // event sent from a step started the second function, once.
    expect(run.steps.map((step) => step.name)).toEqual(expect.arrayContaining(["count-parcels", "print-label", "announce"]));
    // The parallel group forced step planning only while it ran.
    expect((await db().inngestRun.findUniqueOrThrow({ where: { id: run.id } })).forceStepPlan).toBe(false);
    const shipped = await harness.waitForRun({
      functionId: "record-shipment",
      eventId: (await db().inngestEvent.findUniqueOrThrow({ where: { idempotencyKey: "shipped-o-123" } })).id,
      status: "completed",
    });
    expect(shipped.output).toBe(5);
    expect(shipments).toEqual(
      expect.arrayContaining([
        { orderId: "o-123", parcels: 5 },
        { orderId: "o-9", parcels: 3 },
      ]),
    );
    expect(shipments).toHaveLength(2);
  });

  it("rejects event data that does not match the event's schema before sending", async () => {
    await expect(sendEvent({ type: orderPlaced, data: { orderId: 42 } as never, id: "bad-1" })).rejects.toThrow();
    expect(await db().inngestEvent.count({ where: { idempotencyKey: "bad-1" } })).toBe(0);
  });
});

describe("the serve endpoint in embedded mode", () => {
  const body = (runId: string) =>
    canonicalize({
      event: { name: "test/order.shipped", data: { orderId: "s1", parcels: 1 }, id: "e1", ts: 1 },
      events: [{ name: "test/order.shipped", data: { orderId: "s1", parcels: 1 }, id: "e1", ts: 1 }],
      steps: {},
      ctx: {
        run_id: runId,
        attempt: 0,
        max_attempts: 1,
        disable_immediate_execution: false,
        use_api: false,
        stack: { stack: [], current: 0 },
      },
      version: -1,
    }) as string;
  const post = (url: string, payload: string, signature?: string) =>
    fetch(`${url}?fnId=card-payment-service-record-shipment&stepId=step`, {
      method: "POST",
      headers: { "content-type": "application/json", ...(signature ? { "x-inngest-signature": signature } : {}) },
      body: payload,
    });

  it("runs a call signed with the local signing key and rejects unsigned or wrongly signed ones", async () => {
    const harness = await harnesses.start({ functions: [recordShipment] });
    const before = shipments.length;
    const payload = body("01JRUN0000000000000000000A");
    expect((await post(harness.url, payload)).status).toBe(401);
    expect(
      (await post(harness.url, payload, signatureHeader({ body: payload, signingKey: "signkey-local-0123abcd", now: new Date() }))).status,
    ).toBe(401);
    const stale = signatureHeader({ body: payload, signingKey: embeddedSigningKey(), now: new Date(Date.now() - 10 * 60_000) });
    expect((await post(harness.url, payload, stale)).status).toBe(401);
    const tampered = signatureHeader({ body: payload, signingKey: embeddedSigningKey(), now: new Date() });
    expect((await post(harness.url, payload.replace('"parcels":1', '"parcels":2'), tampered)).status).toBe(401);
    expect(shipments.length).toBe(before);

    const good = await post(harness.url, payload, signatureHeader({ body: payload, signingKey: embeddedSigningKey(), now: new Date() }));
    expect(good.status).toBe(200);
    expect(await good.json()).toBe(1);
    expect(shipments.length).toBe(before + 1);
  });
});

describe("runs list", () => {
  it("shows recent runs with status, attempts, next wake-up and last error (query and CLI --json)", async () => {
    const runs = await listRuns({ limit: 50 });
    expect(runs.length).toBeGreaterThanOrEqual(4);
    const placed = runs.find((run) => run.functionId === "place-order");
    expect(placed).toMatchObject({ status: "completed", attempts: 0, nextWakeAt: null, lastError: null, eventName: "test/order.placed" });
    const cli = await runCliCommand(["runs", "list"], { json: true, limit: "2" });
    expect(cli.data).toHaveLength(2);
    expect((cli.data as { status: string }[])[0]).toHaveProperty("status");
    expect(cli.text.split("\n")[0]).toMatch(/^RUN\s+FUNCTION\s+STATUS\s+ATTEMPTS\s+STEPS\s+STARTED\s+NEXT WAKE-UP\s+LAST ERROR$/);
  });
});
