// The published contract on the real Next server: the OpenAPI document, the API reference page
// rendered in Chromium from the service's own files, and JSON refusals for unknown paths and methods.
import { expect, test } from "@playwright/test";
import { demoCredentials, E2E } from "../helpers/e2e/demo-service";

test("GET /api/openapi.json serves the OpenAPI 3.1 document of the merchant API", async ({ request }) => {
  const response = await request.get("/api/openapi.json");
  expect(response.status()).toBe(200);
  const document = await response.json();
  expect(document.openapi).toBe("3.1.0");
  expect(Object.keys(document.paths)).toEqual(
    expect.arrayContaining(["/api/initdynamic", "/api/mit", "/api/{paymentid}/capture", "/api/{paymentid}/payout"]),
  );
  expect(Object.keys(document.webhooks)).toContain("completionNotification");
  // A generator takes the base address from the document: the running service names its own
  // (PUBLIC_BASE_URL, here unset, so http://localhost:<PORT>), not the exported placeholder.
  expect(document.servers).toEqual([{ url: E2E.baseURL, description: expect.any(String) }]);
  expect(Object.keys(document.components.securitySchemes)).toEqual(["basicAuth"]);
});

test("the request bodies the document marks optional are optional on the service, and its documented leniency holds", async ({ request }) => {
  const { apiKey } = demoCredentials();
  // HTTP Basic as generated clients send it (the document's one security scheme): the key as user name.
  const headers = { Authorization: `Basic ${Buffer.from(`${apiKey}:`).toString("base64")}` };
  // requestBody.required false: a capture with no body at all gets past the body to the payment lookup.
  const empty = await request.post("/api/nosuchpayment1/capture", { headers });
  expect(empty.status()).toBe(400);
  expect(await empty.json()).toEqual({ error: "INVALID_PARAMETER", errordescription: "paymentid: no such payment" });
  // requestBody.required true: initdynamic with no body names the first missing field.
  const init = await request.post("/api/initdynamic", { headers });
  expect(await init.json()).toEqual({ error: "INVALID_PARAMETER", errordescription: "merchantid: is required" });
  // The amount is typed integer; a digit string is read the same (documented leniency), a decimal is refused.
  const digits = await request.post("/api/nosuchpayment1/refund", { headers, data: { amount: "250" } });
  expect((await digits.json()).errordescription).toBe("paymentid: no such payment");
  const decimal = await request.post("/api/nosuchpayment1/refund", { headers, data: { amount: "2.50" } });
  expect((await decimal.json()).errordescription).toMatch(/^amount: /);
});

test("the API reference renders the document in the browser without leaving the service", async ({ page }) => {
  const outside: string[] = [];
  page.on("request", (request) => {
    const url = new URL(request.url());
    if (!["localhost", "127.0.0.1"].includes(url.hostname) && url.protocol.startsWith("http")) outside.push(request.url());
  });
  await page.goto("/reference");
  await expect(page.getByText("Card Payment Service merchant API").first()).toBeVisible({ timeout: 30_000 });
  await expect(page.getByText("Open a payment window (spec 4.1)").first()).toBeVisible();
  expect(outside).toEqual([]);
  // N18: the loading line is gone once the reference is drawn, and error codes do not wrap mid-word.
  await expect(page.locator("#loading")).toBeHidden();
  const code = page.locator("table td").filter({ hasText: /^INVALID_MERCHANTID$/ }).first();
  await expect(code).toBeVisible();
  expect(await code.evaluate((cell) => getComputedStyle(cell).whiteSpace)).toBe("nowrap");
});

test("an unknown /api/ path answers 404 in the spec's error shape, as JSON", async ({ request }) => {
  for (const path of ["/api/nothing", "/api/abc/nothing", "/api/abc/capture/extra", "/api"]) {
    const response = await request.post(path, { data: {} });
    expect(response.status(), path).toBe(404);
    expect(response.headers()["content-type"]).toContain("application/json");
    expect(await response.json()).toEqual({ error: "NOT_FOUND", errordescription: expect.stringContaining("no such endpoint") });
  }
});

test("a method an endpoint does not take answers 405 with Allow, in the spec's error shape", async ({ request }) => {
  const get = await request.get("/api/initdynamic");
  expect(get.status()).toBe(405);
  expect(get.headers()["allow"]).toContain("POST");
  expect(await get.json()).toEqual({ error: "METHOD_NOT_ALLOWED", errordescription: expect.stringContaining("use POST") });
  const del = await request.delete("/api/abc/capture");
  expect(del.status()).toBe(405);
  const post = await request.post("/api/abc/payment", { data: {} });
  expect(post.status()).toBe(405);
  expect(post.headers()["allow"]).toContain("GET");
});
