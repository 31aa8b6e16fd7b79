// Security issue 10, item 10: crafted input never gives a 500. Property-based (fast-check): generated
// bodies, query strings, path ids and headers at every merchant API route, every hosted-field route
// and the back office's payments filter. Every answer is the spec's 400 body (or 401/403/404/405/
// 409/413 with a JSON, HTML or script body as fits), never a 500, and the database holds the same
// rows after the invalid requests as before.
//
// The route handlers are called in process, the way Next calls them (the proxy first, then the
// path parameters percent-decoded), for speed: a bounded number of cases per property (FUZZ_RUNS,
// default 100) with a seed printed on failure (FUZZ_SEED replays it). The cases that need Next's
// own routing (a path that is not UTF-8 once decoded) run against the real server in
// tests/security/production-start.test.ts and below when the build is there.
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { resetConfig } from "@/lib/env";
import { badlyEncodedPathAnswer } from "@/lib/api/badly-encoded-path";
import { flushApiRequestLog } from "@/lib/api/api-request-log";
import { parsePaymentFilters } from "@/lib/backoffice/payment-filters";
import { listPayments } from "@/lib/backoffice/queries/list-payments";
import { createTestMerchant, createTestPayment, type TestMerchant } from "@/tests/helpers/merchant-factories";
import { useTestDatabase } from "@/tests/helpers/test-database";

useTestDatabase();

const SEED = process.env.FUZZ_SEED ? Number(process.env.FUZZ_SEED) : Math.floor(Math.random() * 2 ** 31);
const RUNS = Number(process.env.FUZZ_RUNS ?? 100);
const ORIGIN = "http://127.0.0.1:3449";

/** fast-check settings: the seed is printed with every counterexample (and once here). */
const params = (runs = RUNS): fc.Parameters<unknown> => ({ seed: SEED, numRuns: runs, endOnFailure: true, verbose: 1 });
console.log(`[fuzz] seed ${SEED} (replay with FUZZ_SEED=${SEED}), ${RUNS} cases per property`);

type Handler = (request: Request, context: { params: Promise<Record<string, string>> }) => Promise<Response>;
type Module = Partial<Record<"GET" | "POST", Handler>>;

interface Route {
  /** Path template; `{paymentid}` / `{sessionid}` are filled with generated ids. */
  path: string;
  load: () => Promise<unknown>;
}

const MERCHANT_ROUTES: Route[] = [
  { path: "/api/initdynamic", load: () => import("@/app/api/initdynamic/route") },
  { path: "/api/mit", load: () => import("@/app/api/mit/route") },
  { path: "/api/{paymentid}/capture", load: () => import("@/app/api/[paymentid]/capture/route") },
  { path: "/api/{paymentid}/refund", load: () => import("@/app/api/[paymentid]/refund/route") },
  { path: "/api/{paymentid}/void", load: () => import("@/app/api/[paymentid]/void/route") },
  { path: "/api/{paymentid}/payout", load: () => import("@/app/api/[paymentid]/payout/route") },
  { path: "/api/{paymentid}/payment", load: () => import("@/app/api/[paymentid]/payment/route") },
];

/**
 * The disputes API (issue 40), whose `{disputeid}` is filled with the generated path id (no dispute
 * has it, so no generated request may succeed). Not in the merchantid check above: evidence takes
 * multipart/form-data only and refuses a JSON body by its Content-Type first.
 */
const DISPUTE_ROUTES: Route[] = [
  { path: "/api/disputes/{disputeid}", load: () => import("@/app/api/disputes/[disputeid]/route") },
  { path: "/api/disputes/{disputeid}/evidence", load: () => import("@/app/api/disputes/[disputeid]/evidence/route") },
  { path: "/api/disputes/{disputeid}/decision", load: () => import("@/app/api/disputes/[disputeid]/decision/route") },
];

const HOSTED_ROUTES: Route[] = [
  { path: "/dynamic/{sessionid}/dynamic.js", load: () => import("@/app/dynamic/[sessionid]/dynamic.js/route") },
  { path: "/dynamic/{sessionid}/pan", load: () => import("@/app/dynamic/[sessionid]/pan/route") },
  { path: "/dynamic/{sessionid}/expmonth", load: () => import("@/app/dynamic/[sessionid]/expmonth/route") },
  { path: "/dynamic/{sessionid}/expyear", load: () => import("@/app/dynamic/[sessionid]/expyear/route") },
  { path: "/dynamic/{sessionid}/securitycode", load: () => import("@/app/dynamic/[sessionid]/securitycode/route") },
  { path: "/dynamic/{sessionid}/ccsingle", load: () => import("@/app/dynamic/[sessionid]/ccsingle/route") },
  { path: "/dynamic/{sessionid}/controller", load: () => import("@/app/dynamic/[sessionid]/controller/route") },
  { path: "/dynamic/{sessionid}/payments", load: () => import("@/app/dynamic/[sessionid]/payments/route") },
  { path: "/dynamic/{sessionid}/payments/{paymentid}/authorize", load: () => import("@/app/dynamic/[sessionid]/payments/[paymentid]/authorize/route") },
  { path: "/dynamic/{sessionid}/payments/{paymentid}/challenge", load: () => import("@/app/dynamic/[sessionid]/payments/[paymentid]/challenge/route") },
  {
    path: "/dynamic/{sessionid}/payments/{paymentid}/challenge-notify",
    load: () => import("@/app/dynamic/[sessionid]/payments/[paymentid]/challenge-notify/route"),
  },
  {
    path: "/dynamic/{sessionid}/payments/{paymentid}/abort-challenge",
    load: () => import("@/app/dynamic/[sessionid]/payments/[paymentid]/abort-challenge/route"),
  },
];

/** Tables whose row counts must not move on invalid requests (ApiRequest is the request log: every request writes one). */
async function rowCounts(): Promise<Record<string, number>> {
  const client = db();
  return {
    merchant: await client.merchant.count(),
    apiKey: await client.apiKey.count(),
    paymentSession: await client.paymentSession.count(),
    payment: await client.payment.count(),
    operation: await client.operation.count(),
    storedCard: await client.storedCard.count(),
    notification: await client.notification.count(),
    idempotencyRecord: await client.idempotencyRecord.count(),
    threeDsAuthentication: await client.threeDsAuthentication.count(),
    auditEntry: await client.auditEntry.count(),
    inngestEvent: await client.inngestEvent.count(),
  };
}

/** A path segment as a client could send it: plain text, percent-encoded, or raw percent garbage. */
const pathId = fc.oneof(
  fc.string({ minLength: 1, maxLength: 40 }).map(encodeURIComponent),
  fc.stringMatching(/^[A-Za-z0-9]{1,40}$/),
  fc.constantFrom("%FF", "%C0%AF", "%E0%80%80", "%ED%A0%80", "abc%", "%zz", "%00", "..", "%2e%2e", "%2F", "a%FFb", "%F0%9F%98"),
  fc.array(fc.integer({ min: 0, max: 255 }), { minLength: 1, maxLength: 12 }).map((bytes) => bytes.map((byte) => `%${byte.toString(16).padStart(2, "0").toUpperCase()}`).join("")),
);

/** JSON values, with the shapes that broke us: objects with toString/valueOf, __proto__, deep nesting, big numbers. */
const jsonValue: fc.Arbitrary<unknown> = fc.oneof(
  fc.jsonValue({ maxDepth: 3 }),
  fc.constantFrom({ toString: 1 }, { valueOf: 1, toString: null }, { __proto__: { a: 1 } }, [], [[[]]], 1e308, -0, "", "\u0000", "\uD800"),
);

const merchantBody = fc.oneof(
  fc.dictionary(fc.constantFrom("merchantid", "amount", "currency", "notificationurl", "paymentid", "merchantpaymentid", "set3ds", "processor", "timeout", "rule", "hostedid", "x"), jsonValue, { maxKeys: 8 }).map((body) => JSON.stringify(body)),
  fc.string({ maxLength: 200 }),
  jsonValue.map((value) => JSON.stringify(value) ?? "null"),
  fc.constantFrom('{"merchantid":{"toString":1}}', '{"merchantid":{"valueOf":1,"toString":1}}', '{"merchantid":[]}', '{"__proto__":{"merchantid":"x"}}', "{", "[1,", "\u0000", '{"amount":1e400}'),
);

const queryString = fc
  .array(fc.tuple(fc.oneof(fc.constantFrom("merchantid", "amount", "from", "to", "status", "q", "currency"), fc.string({ maxLength: 10 })), fc.string({ maxLength: 30 })), { maxLength: 5 })
  .map((pairs) => new URLSearchParams(pairs).toString());

const headerValue = fc.stringMatching(/^[\x20-\x7e]{0,60}$/);

/** Fills the path template; returns the raw (percent-encoded) path. */
function fill(template: string, ids: { paymentid: string; sessionid: string }): string {
  return template.replace("{paymentid}", ids.paymentid).replace("{disputeid}", ids.paymentid).replace("{sessionid}", ids.sessionid);
}

/** What Next does before a handler runs: the proxy, then the route's params percent-decoded. */
async function dispatch(route: Route, rawPath: string, init: RequestInit & { method: "GET" | "POST" }): Promise<Response> {
  const refused = badlyEncodedPathAnswer(rawPath);
  if (refused) return refused;
  const routeModule = (await route.load()) as Module;
  const handler = routeModule[init.method];
  if (!handler) return new Response(null, { status: 405 });
  const templateSegments = route.path.split("/");
  const rawSegments = rawPath.split("/");
  const routeParams: Record<string, string> = {};
  templateSegments.forEach((segment, index) => {
    const name = /^\{(\w+)\}$/.exec(segment)?.[1];
    if (name) routeParams[name] = decodeURIComponent(rawSegments[index]!);
  });
  return handler(new Request(`${ORIGIN}${rawPath}`, init), { params: Promise.resolve(routeParams) });
}

const ALLOWED_STATUSES = new Set([200, 400, 401, 403, 404, 405, 409, 410, 413]);

async function expectNo500(response: Response, what: string, { merchantApi }: { merchantApi: boolean }): Promise<void> {
  const text = await response.text();
  expect(response.status, `${what}: ${response.status} ${text.slice(0, 200)}`).toBeLessThan(500);
  expect(ALLOWED_STATUSES.has(response.status), `${what}: status ${response.status}`).toBe(true);
  if (merchantApi) {
    // The merchant API answers invalid requests with the spec's 400 body (section 7) and a request id.
    expect(response.headers.get("content-type") ?? "", what).toMatch(/^application\/json/);
    const body = JSON.parse(text) as Record<string, unknown>;
    expect(Object.keys(body).sort(), what).toEqual(["error", "errordescription"]);
    expect(response.headers.get("x-request-id"), what).toMatch(/^[a-f0-9]{32}$/);
    if (response.status === 400) expect(["INVALID_API_KEY", "INVALID_MERCHANTID", "INVALID_PARAMETER"], what).toContain(body.error);
  }
}

let merchant: TestMerchant;
let paymentId: string;
let sessionId: string;
let before: Record<string, number>;

beforeAll(async () => {
  process.env.PUBLIC_BASE_URL = ORIGIN;
  resetConfig();
  merchant = await createTestMerchant({ defaultNotificationUrl: "http://127.0.0.1:9/notify" });
  ({ paymentId } = await createTestPayment({ merchantId: merchant.merchantId, status: "AUTHORIZED", withStoredCard: true }));
  const init = await dispatch(MERCHANT_ROUTES[0]!, "/api/initdynamic", {
    method: "POST",
    headers: { authorization: `Basic ${merchant.apiKey}`, "content-type": "application/json" },
    body: JSON.stringify({ merchantid: merchant.merchantId, amount: 1000, currency: "DKK", notificationurl: "http://127.0.0.1:9/notify" }),
  });
  const session = (await init.json()) as { sessionid?: string };
  expect(init.status, JSON.stringify(session)).toBe(200);
  sessionId = session.sessionid!;
  await flushApiRequestLog();
  before = await rowCounts();
});

afterAll(async () => {
  delete process.env.PUBLIC_BASE_URL;
  resetConfig();
});

describe("item 10: crafted input never gives a 500", () => {
  it('item 10: {"merchantid":{"toString":1}} is refused with INVALID_MERCHANTID on every merchant route', async () => {
    for (const route of MERCHANT_ROUTES) {
      const path = fill(route.path, { paymentid: paymentId, sessionid: sessionId });
      const response = await dispatch(route, path, {
        method: "POST",
        headers: { authorization: `Basic ${merchant.apiKey}`, "content-type": "application/json" },
        body: '{"merchantid":{"toString":1}}',
      });
      if (response.status === 405) continue; // GET-only route
      expect(response.status, route.path).toBe(400);
      expect(await response.json(), route.path).toEqual({ error: "INVALID_MERCHANTID", errordescription: "merchantid: does not belong to the API key" });
    }
    const payment = await dispatch(MERCHANT_ROUTES[6]!, `/api/${paymentId}/payment?merchantid[toString]=1`, {
      method: "GET",
      headers: { authorization: `Basic ${merchant.apiKey}` },
    });
    expect(payment.status).toBeLessThan(500);
  });

  it("item 10: a path id that is not UTF-8 once decoded (/api/%FF/capture, %C0%AF) or holds a control character gets the spec's 400 with a request id", async () => {
    for (const id of ["%FF", "%C0%AF", "a%E0%80"]) {
      const response = badlyEncodedPathAnswer(`/api/${id}/capture`);
      expect(response?.status).toBe(400);
      expect(await response!.json()).toEqual({ error: "INVALID_PARAMETER", errordescription: "paymentid: is not valid percent-encoded UTF-8" });
      expect(response!.headers.get("x-request-id")).toMatch(/^[a-f0-9]{32}$/);
    }
    expect(badlyEncodedPathAnswer("/dynamic/%FF/pan")?.status).toBe(400);
    // NUL decodes fine but PostgreSQL refuses it in text: a session id %00 reached a query and failed it.
    expect(await badlyEncodedPathAnswer("/dynamic/%00/payments/x/challenge-notify")?.json()).toEqual({
      error: "INVALID_PARAMETER",
      errordescription: "sessionid: must not contain control characters",
    });
    expect(badlyEncodedPathAnswer(`/api/${paymentId}/capture`)).toBeUndefined();
    expect(badlyEncodedPathAnswer("/api/caf%C3%A9/capture")).toBeUndefined();
  });

  it("item 10: the back-office payments filter ?from=2024-13-45 is reported as a field error, and the list still loads", async () => {
    const { filters, errors } = parsePaymentFilters({ from: "2024-13-45", to: "2024-02-30" });
    expect(errors.from).toBeDefined();
    expect(errors.to).toBeDefined();
    await expect(listPayments({ merchantId: merchant.merchantId, mode: "test" as const, filters })).resolves.toBeDefined();
  });

  it("item 10: generated bodies, query strings, path ids and headers at every merchant API route answer the spec's 400, never 500", async () => {
    const authorization = fc.oneof(
      fc.constant(undefined),
      fc.constant("valid"),
      headerValue,
      fc.constantFrom("Basic", "Basic ", "Bearer x", "Basic cps_", "Basic \u00ff"),
    );
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...MERCHANT_ROUTES, ...DISPUTE_ROUTES),
        fc.constantFrom("GET" as const, "POST" as const),
        pathId,
        merchantBody,
        queryString,
        authorization,
        fc.record({ trace: fc.option(headerValue), idempotency: fc.option(headerValue), contentType: fc.option(headerValue) }),
        async (route, method, id, body, query, auth, extra) => {
          const headers: Record<string, string> = {};
          if (auth === "valid") headers.authorization = `Basic ${merchant.apiKey}`;
          else if (auth !== undefined) headers.authorization = auth;
          if (extra.trace !== null) headers.TraceApi = extra.trace;
          if (extra.idempotency !== null) headers["Idempotency-Key"] = extra.idempotency;
          if (extra.contentType !== null) headers["content-type"] = extra.contentType;
          // Never the one payment that exists: every generated request is invalid, so none may change a row.
          const path = `${fill(route.path, { paymentid: id === paymentId ? `${id}x` : id, sessionid: sessionId })}${query ? `?${query}` : ""}`;
          const [pathname] = path.split("?");
          const response = await dispatch(route, pathname!, { method, headers, body: method === "POST" ? body : undefined });
          if (response.status === 405) return;
          await expectNo500(response, `${method} ${path} ${body.slice(0, 80)}`, { merchantApi: true });
          expect(response.status, `${method} ${path} ${body.slice(0, 80)}`).not.toBe(200);
        },
      ),
      params(),
    );
  });

  it("item 10: generated bodies, path ids and headers at every hosted-field route answer 4xx, never 500", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...HOSTED_ROUTES),
        fc.constantFrom("GET" as const, "POST" as const),
        fc.oneof(pathId, fc.constant("valid")),
        pathId,
        merchantBody,
        fc.record({ origin: fc.oneof(fc.constant(ORIGIN), headerValue), contentType: fc.constantFrom("application/json", "text/plain", "application/x-www-form-urlencoded") }),
        async (route, method, session, paymentid, body, extra) => {
          // The real session only with a payment id that does not exist, and never on the route that opens a payment.
          const sessionid = session === "valid" && route.path !== "/dynamic/{sessionid}/payments" ? sessionId : session === "valid" ? "0".repeat(32) : session;
          const path = fill(route.path, { sessionid, paymentid: paymentid === paymentId ? `${paymentid}x` : paymentid });
          const headers = { origin: extra.origin, "content-type": extra.contentType };
          const response = await dispatch(route, path, { method, headers, body: method === "POST" ? body : undefined });
          await expectNo500(response, `${method} ${path} ${body.slice(0, 80)}`, { merchantApi: false });
        },
      ),
      params(),
    );
  });

  it("item 10: generated back-office payment filters are parsed into field errors, and the list query never fails", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.record({
          from: fc.oneof(fc.string({ maxLength: 12 }), fc.stringMatching(/^\d{4}-\d{2}-\d{2}$/)),
          to: fc.oneof(fc.string({ maxLength: 12 }), fc.stringMatching(/^\d{4}-\d{2}-\d{2}$/)),
          minAmount: fc.string({ maxLength: 14 }),
          maxAmount: fc.oneof(fc.string({ maxLength: 14 }), fc.stringMatching(/^\d{1,10}(\.\d{1,2})?$/)),
          status: fc.string({ maxLength: 10 }),
          processor: fc.string({ maxLength: 10 }),
          scheme: fc.string({ maxLength: 10 }),
          currency: fc.string({ maxLength: 4 }),
          q: fc.string({ maxLength: 80 }),
        }),
        async (raw) => {
          const { filters } = parsePaymentFilters(raw);
          await listPayments({ merchantId: merchant.merchantId, mode: "test" as const, filters });
        },
      ),
      params(Math.min(RUNS, 30)),
    );
  });

  it("item 10: the database holds the same rows after all the invalid requests", async () => {
    await flushApiRequestLog();
    expect(await rowCounts()).toEqual(before);
  });
});
