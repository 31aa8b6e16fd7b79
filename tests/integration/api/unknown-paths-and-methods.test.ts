// What no endpoint takes: unknown /api/ paths (404) and wrong methods (405 with Allow), answered in
// the spec's error shape as JSON, and touching nothing. The same routes on the real Next server:
// tests/e2e/api-contract.spec.ts.
import { describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { useMerchantApi } from "@/tests/helpers/merchant-api-harness";
import { useTestMerchant } from "@/tests/helpers/use-test-merchant";
import { useTestDatabase } from "@/tests/helpers/test-database";

useTestDatabase();

const api = useMerchantApi();
const merchant = useTestMerchant({ defaultNotificationUrl: "http://127.0.0.1:9/default" });

describe("requests that reach no endpoint", () => {
  it("answers an unknown path with 404 NOT_FOUND as JSON", async () => {
    for (const path of ["/api/nothing", "/api/abc/refunds", "/api/abc/capture/extra", "/api"]) {
      const response = await api.call("POST", path, { apiKey: merchant.apiKey, body: { merchantid: merchant.merchantId, amount: 1 } });
      expect(response.status, path).toBe(404);
      expect(response.headers.get("content-type")).toContain("application/json");
      expect(response.body).toEqual({ error: "NOT_FOUND", errordescription: `${path}: no such endpoint` });
    }
  });

  it("answers a method the endpoint does not take with 405 METHOD_NOT_ALLOWED and Allow, and performs nothing", async () => {
    const before = await db().operation.count();
    const capture = await api.call("GET", "/api/abc/capture", { apiKey: merchant.apiKey });
    expect(capture.status).toBe(405);
    expect(capture.headers.get("allow")).toBe("POST, OPTIONS");
    expect(capture.body).toEqual({ error: "METHOD_NOT_ALLOWED", errordescription: "GET /api/abc/capture: not allowed; use POST, OPTIONS" });
    const lookup = await api.call("POST", "/api/abc/payment", { apiKey: merchant.apiKey, body: {} });
    expect(lookup.status).toBe(405);
    expect(lookup.headers.get("allow")).toBe("GET, HEAD, OPTIONS");
    const init = await api.call("GET", "/api/initdynamic", { apiKey: merchant.apiKey });
    expect(init.status).toBe(405);
    expect(await db().operation.count()).toBe(before);
  });
});
