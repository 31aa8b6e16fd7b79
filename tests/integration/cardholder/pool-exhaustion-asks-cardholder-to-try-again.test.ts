// When the service is overloaded (no pooled database connection in time), the cardholder's side
// answers "busy, nothing was charged, try again" instead of a 500: goPay()'s request (POST /pay)
// answers 503 with Retry-After and a failed result with errorcode SERVICE_UNAVAILABLE that our frames
// read (so the merchant page gets jspaymentfailed with it), nothing is written, and pressing pay again
// once connections are free pays; the field pages and dynamic.js answer 503 "try again" too. Real
// HTTP, real database, the acquirer sandboxes; the pool is exhausted by tests/helpers/exhaust-db-pool.ts.
import { describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { createOriginBinding } from "@/lib/cardholder/origin-binding";
import { ERROR_TEXTS, startPaymentResponseSchema } from "@/lib/cardholder/protocol";
import { holdThePoolsConnection, useExhaustiblePool } from "@/tests/helpers/exhaust-db-pool";
import { useTestDatabase } from "@/tests/helpers/test-database";
import { useCardholderServices } from "@/tests/helpers/cardholder-services";
import { createTestSession } from "../../helpers/session-factory";

useTestDatabase();
const { usePool } = useExhaustiblePool();

const MERCHANT_ORIGIN = "http://shop.example";
const NEXT_YEAR = String(new Date().getUTCFullYear() + 1);
const VISA = { pan: "4111111111111111", expmonth: "12", expyear: NEXT_YEAR, securitycode: "123" };


const services = useCardholderServices({ extensions: true });

const pay = (sessionId: string) =>
  fetch(`${services.server.origin}/dynamic/${sessionId}/pay`, {
    method: "POST",
    headers: { "content-type": "application/json", origin: services.server.origin },
    body: JSON.stringify({ card: VISA, binding: createOriginBinding(sessionId, MERCHANT_ORIGIN) }),
  });

/** Every answer the cardholder's side gives while the pool's one connection is held. */
async function whileExhausted<T>(run: () => Promise<T>): Promise<T> {
  const release = await holdThePoolsConnection(10_000);
  try {
    return await run();
  } finally {
    await release();
  }
}

describe("the cardholder's side of an overloaded service", () => {
  it("goPay() answers 503 SERVICE_UNAVAILABLE with Retry-After, a result the frames read, writes nothing, and pays when pressed again", async () => {
    await usePool(1_500);
    const session = await createTestSession(services.merchantId, { notificationUrl: "http://127.0.0.1:9/notify" });
    // The route and its imports load now, not while the connection is held.
    await fetch(`${services.server.origin}/dynamic/${session.id}/pay`, { method: "POST", headers: { origin: "http://elsewhere.example" } });

    const { status, retryAfter, text } = await whileExhausted(async () => {
      const response = await pay(session.id);
      return { status: response.status, retryAfter: response.headers.get("retry-after"), text: await response.text() };
    });
    expect(status).toBe(503);
    expect(retryAfter).toBe("2");
    const [first, ...rest] = text.split("\n").filter(Boolean);
    expect(rest).toEqual([]);
    const result = startPaymentResponseSchema.parse(JSON.parse(first!));
    expect(result).toEqual({
      result: "failed",
      paymentid: null,
      errorcode: "SERVICE_UNAVAILABLE",
      errortext: ERROR_TEXTS.SERVICE_UNAVAILABLE,
    });
    expect(result.result === "failed" && result.errortext).toMatch(/nothing was charged; please try again/);
    expect(await db().paymentSession.findUniqueOrThrow({ where: { id: session.id }, select: { status: true, paymentId: true } })).toEqual({
      status: "OPEN",
      paymentId: null,
    });
    expect(await db().payment.count({ where: { merchantId: services.merchantId } })).toBe(0);

    const again = await pay(session.id);
    expect(again.status).toBe(200);
    const lines = (await again.text())
      .split("\n")
      .filter(Boolean)
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(lines.map((line) => line.result)).toEqual(["started", "approved"]);
  }, 60_000);

  it("a field page and dynamic.js answer 503 'try again' (framed only by the bound merchant origin), not a 500", async () => {
    await usePool(1_500);
    const session = await createTestSession(services.merchantId, { notificationUrl: "http://127.0.0.1:9/notify" });
    const pageUrl = `${services.server.origin}/dynamic/${session.id}/pan?b=${encodeURIComponent(createOriginBinding(session.id, MERCHANT_ORIGIN))}`;
    const scriptUrl = `${services.server.origin}/dynamic/${session.id}/dynamic.js`;
    // Load both routes first (outside the hold).
    await Promise.all([fetch(pageUrl), fetch(scriptUrl, { headers: { referer: `${MERCHANT_ORIGIN}/checkout` } })]);

    const [page, script] = await whileExhausted(async () => {
      const answers = await Promise.all([fetch(pageUrl), fetch(scriptUrl, { headers: { referer: `${MERCHANT_ORIGIN}/checkout` } })]);
      return Promise.all(
        answers.map(async (response) => ({ status: response.status, headers: response.headers, text: await response.text() })),
      );
    });
    expect(page!.status).toBe(503);
    expect(page!.headers.get("retry-after")).toBe("2");
    expect(page!.headers.get("content-type")).toContain("text/html");
    expect(page!.text).toContain(ERROR_TEXTS.SERVICE_UNAVAILABLE);
    expect(page!.headers.get("content-security-policy")).toContain(`frame-ancestors ${MERCHANT_ORIGIN}`);
    expect(script!.status).toBe(503);
    expect(script!.headers.get("retry-after")).toBe("2");
    expect(script!.text).toContain(ERROR_TEXTS.SERVICE_UNAVAILABLE);
  }, 60_000);
});
