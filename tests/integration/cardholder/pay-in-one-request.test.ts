// goPay() in one request (POST /dynamic/<sessionid>/pay, lib/cardholder/serve-pay-request.ts), over
// real HTTP against the acquirer sandboxes: the payment id arrives as the first JSON line before the
// authorization ends (so jspaymentstarted does not wait for the acquirer), the result as the second;
// refusals, the other origin, and a decline then a retry on the same payment.
import { describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { createOriginBinding } from "@/lib/cardholder/origin-binding";
import { useTestDatabase } from "@/tests/helpers/test-database";
import { useCardholderServices } from "@/tests/helpers/cardholder-services";
import * as payRoute from "@/app/dynamic/[sessionid]/pay/route";
import { createTestSession, type SessionOverrides } from "../../helpers/session-factory";

useTestDatabase();

const MERCHANT_ORIGIN = "http://shop.example";
const NEXT_YEAR = String(new Date().getUTCFullYear() + 1);
const VISA = { pan: "4111111111111111", expmonth: "12", expyear: NEXT_YEAR, securitycode: "123" };


const services = useCardholderServices({ hangMs: 1500, extensions: true });

function session(overrides: SessionOverrides = {}) {
  return createTestSession(services.merchantId, { notificationUrl: "http://127.0.0.1:9/notify", ...overrides });
}

interface Line {
  at: number;
  value: Record<string, unknown>;
}

/** POST /pay as our controller frame does; each JSON line with the time it arrived. */
async function payInOneRequest(sessionId: string, card: Record<string, string> | undefined, origin = services.server.origin) {
  const started = performance.now();
  const response = await fetch(`${services.server.origin}/dynamic/${sessionId}/pay`, {
    method: "POST",
    headers: { "content-type": "application/json", origin },
    body: JSON.stringify({ card, binding: createOriginBinding(sessionId, MERCHANT_ORIGIN) }),
  });
  const lines: Line[] = [];
  if (!response.body) return { response, lines };
  const decoder = new TextDecoder();
  let buffered = "";
  const reader = response.body.getReader();
  for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) {
    buffered += decoder.decode(chunk.value, { stream: true });
    let end: number;
    while ((end = buffered.indexOf("\n")) >= 0) {
      lines.push({ at: performance.now() - started, value: JSON.parse(buffered.slice(0, end)) as Record<string, unknown> });
      buffered = buffered.slice(end + 1);
    }
  }
  return { response, lines };
}

describe("goPay() in one request", () => {
  it("answers the payment id first, then the approval, and the session completes", async () => {
    const created = await session();
    const { response, lines } = await payInOneRequest(created.id, VISA);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toContain("application/x-ndjson");
    expect(response.headers.get("cache-control")).toContain("no-store");
    expect(lines.map((line) => line.value)).toEqual([
      { result: "started", paymentid: expect.stringMatching(/^[A-Za-z0-9]{1,32}$/) },
      { result: "approved", paymentid: lines[0]!.value.paymentid },
    ]);
    expect((await db().paymentSession.findUniqueOrThrow({ where: { id: created.id } })).status).toBe("COMPLETED");
  });

  it("the payment id does not wait for the acquirer: it arrives while a hanging processor still holds the authorization", async () => {
    // 4000000000000119 makes every sandbox processor hold the request for hangMs (1.5 s here).
    // The route handler's own response stream, read as Next sends it on (this file's HTTP bridge buffers bodies).
    const created = await session({ processors: ["finaro"] });
    const started = performance.now();
    const response = await payRoute.POST(
      new Request(`${services.server.origin}/dynamic/${created.id}/pay`, {
        method: "POST",
        headers: { "content-type": "application/json", origin: services.server.origin },
        body: JSON.stringify({ card: { ...VISA, pan: "4000000000000119" } }),
      }),
      { params: Promise.resolve({ sessionid: created.id }) },
    );
    const reader = response.body!.getReader();
    const first = await reader.read();
    const firstAt = performance.now() - started;
    expect(JSON.parse(new TextDecoder().decode(first.value))).toMatchObject({ result: "started" });
    let rest = "";
    for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) rest += new TextDecoder().decode(chunk.value);
    const lastAt = performance.now() - started;
    expect(JSON.parse(rest)).toMatchObject({ result: "failed", errorcode: "PAYMENT_ERROR" });
    expect(lastAt - firstAt).toBeGreaterThan(1000);
  });

  it("a missing field is refused after the payment opened, before anything reaches a processor", async () => {
    const created = await session();
    const { lines } = await payInOneRequest(created.id, { ...VISA, pan: "" });
    const paymentid = lines[0]!.value.paymentid as string;
    expect(lines[1]!.value).toMatchObject({ result: "failed", paymentid, errorcode: "PAN_MISSING" });
    expect(await db().operation.count({ where: { paymentId: paymentid } })).toBe(0);
  });

  it("a decline keeps the window open and the next goPay() pays the same payment", async () => {
    const created = await session();
    const first = await payInOneRequest(created.id, { ...VISA, pan: "4000000000000002" });
    expect(first.lines[1]!.value).toMatchObject({ result: "failed", errorcode: "PAYMENT_DECLINED" });
    const second = await payInOneRequest(created.id, VISA);
    expect(second.lines.map((line) => line.value)).toEqual([
      { result: "started", paymentid: first.lines[0]!.value.paymentid },
      { result: "approved", paymentid: first.lines[0]!.value.paymentid },
    ]);
  });

  it("a completed session answers one line: the refusal", async () => {
    const created = await session();
    await payInOneRequest(created.id, VISA);
    const again = await payInOneRequest(created.id, VISA);
    expect(again.lines.map((line) => line.value)).toEqual([expect.objectContaining({ result: "failed", errorcode: "PAYMENT_ERROR" })]);
  });

  it("only our own frames may call it: another origin and a non-JSON body are refused and open no payment", async () => {
    const created = await session();
    const { response } = await payInOneRequest(created.id, VISA, "http://evil.example");
    expect(response.status).toBe(403);
    const plain = await fetch(`${services.server.origin}/dynamic/${created.id}/pay`, {
      method: "POST",
      headers: { "content-type": "text/plain", origin: services.server.origin },
      body: JSON.stringify({ card: VISA }),
    });
    expect(plain.status).toBe(403);
    expect((await db().paymentSession.findUniqueOrThrow({ where: { id: created.id } })).paymentId).toBeNull();
  });
});
