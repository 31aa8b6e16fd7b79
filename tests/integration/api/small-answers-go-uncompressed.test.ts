// Decision 0174's second half, held by the running server: a merchant API answer under 1 KB (nearly
// every one) goes as it is, even to a client that accepts gzip (every fetch does):
// compressing a few dozen bytes cost the web process a tenth of its CPU at 100 captures a second
// (docs/performance.md) and saves nothing on the wire. Larger answers are still compressed. Run
// against `npm start`, because the compression is the Next.js server's, not the route handler's.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startBackofficeService, type BackofficeService } from "@/tests/helpers/backoffice-service";

let service: BackofficeService | undefined;

beforeAll(async () => {
  service = await startBackofficeService("small-answers");
}, 600_000);

afterAll(async () => {
  await service?.stop();
});

const GZIP_WELCOME = { "accept-encoding": "gzip, deflate, br" };

describe("merchant API answers and compression", () => {
  it("a small answer goes uncompressed to a client that accepts gzip", async () => {
    const { demo } = service!;
    const answer = await service!.call("/api/initdynamic", {
      method: "POST",
      headers: { ...GZIP_WELCOME, authorization: `Basic ${demo.apiKey}`, "content-type": "application/json" },
      body: JSON.stringify({ merchantid: demo.merchantId, amount: 100, currency: "DKK", notificationurl: "https://shop.example/notify" }),
    });
    const body = Buffer.from(await answer.arrayBuffer());
    expect(answer.status, body.toString()).toBe(200);
    expect(answer.headers.get("content-encoding")).toBeNull();
    expect(answer.headers.get("cache-control")).toBe("no-store, no-transform");
    expect(body.length).toBeLessThan(1024);
    expect(JSON.parse(body.toString())).toMatchObject({ sessionid: expect.any(String) });
  });

  it("so does a small refusal", async () => {
    const answer = await service!.call("/api/initdynamic", {
      method: "POST",
      headers: { ...GZIP_WELCOME, authorization: "Basic bm90LWEta2V5", "content-type": "application/json" },
      body: "{}",
    });
    const body = Buffer.from(await answer.arrayBuffer());
    expect(answer.status).toBeGreaterThanOrEqual(400);
    expect(answer.headers.get("content-encoding")).toBeNull();
    expect(JSON.parse(body.toString())).toMatchObject({ error: expect.any(String) });
  });

  it("a large answer is still compressed (the API's OpenAPI document)", async () => {
    const answer = await service!.call("/api/openapi.json", { headers: GZIP_WELCOME });
    expect(answer.status).toBe(200);
    expect(answer.headers.get("content-encoding")).toBe("gzip");
  });
});
