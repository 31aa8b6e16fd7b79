// Issue 10 item 1 (server-side request forgery), request time: a merchant cannot name an address
// the service must never reach. Over real HTTP against the merchant API's route handlers (in-process
// harness), and through the back office's notification-address rules.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { config } from "@/lib/env";
import { notificationUrlSchema as backOfficeUrlSchema } from "@/lib/backoffice/notification-url";
import { startMerchantApi, type MerchantApiHarness } from "@/tests/helpers/merchant-api-harness";
import { createTestMerchant, type TestMerchant } from "@/tests/helpers/merchant-factories";
import { useTestDatabase } from "@/tests/helpers/test-database";
import { restoreEnvAfterEach, runAsProduction } from "@/tests/helpers/production-mode";

useTestDatabase();
restoreEnvAfterEach();

let api: MerchantApiHarness;
let merchant: TestMerchant;

beforeAll(async () => {
  api = await startMerchantApi();
  merchant = await createTestMerchant();
});
afterAll(async () => api?.close());

/** Every merchant-API request that takes a notificationurl, with otherwise valid fields. */
const REQUESTS: Array<{ name: string; path: string; body: Record<string, unknown>; method?: "GET" }> = [
  { name: "initdynamic", path: "/api/initdynamic", body: { amount: 250, currency: "DKK" } },
  { name: "MIT", path: "/api/mit", body: { paymentid: "p1", amount: 250, currency: "DKK", paymenttype: "unscheduled" } },
  { name: "capture", path: "/api/p1/capture", body: { amount: 250 } },
  { name: "refund", path: "/api/p1/refund", body: { amount: 250 } },
  { name: "void", path: "/api/p1/void", body: {} },
  { name: "payout", path: "/api/p1/payout", body: { amount: 250, currency: "DKK" } },
  { name: "payment details", path: "/api/p1/payment", body: {}, method: "GET" },
];

/** Refused in every mode: private, link-local (cloud metadata), unique-local, CGNAT, mapped and embedded forms. */
const ALWAYS_REFUSED = [
  "http://10.0.0.1/notify",
  "http://192.168.1.10:8080/notify",
  "http://172.16.0.5/notify",
  "http://169.254.169.254/latest/meta-data/",
  "http://100.64.0.1/notify",
  "http://0.0.0.0:5432/",
  "http://[fe80::1]/notify",
  "http://[fd00::1]/notify",
  "http://[::ffff:10.0.0.1]/notify",
  "http://[::ffff:169.254.169.254]/",
  "http://[64:ff9b::a9fe:a9fe]/",
  "http://224.0.0.1/",
  "http://0x0a000001/notify", // 10.0.0.1 written in hex
];

const post = (path: string, body: Record<string, unknown>, method: "GET" | "POST" = "POST") =>
  method === "GET"
    ? api.call("GET", `${path}?${new URLSearchParams({ merchantid: merchant.merchantId, ...(body as Record<string, string>) })}`, { apiKey: merchant.apiKey })
    : api.call("POST", path, { apiKey: merchant.apiKey, body: { merchantid: merchant.merchantId, ...body } });

describe("notificationurl at request time", () => {
  for (const request of REQUESTS) {
    it(`item 1: ${request.name} refuses private, link-local, CGNAT, unique-local and IPv4-mapped addresses with INVALID_PARAMETER naming notificationurl`, async () => {
      for (const url of ALWAYS_REFUSED) {
        const response = await post(request.path, { ...request.body, notificationurl: url }, request.method);
        expect({ url, status: response.status, error: response.body.error }).toEqual({ url, status: 400, error: "INVALID_PARAMETER" });
        expect(response.body.errordescription).toMatch(/^notificationurl: must not point to /);
      }
    });
  }

  it("item 1: in production, loopback (in any spelling) and http:// notification addresses are refused at request time", async () => {
    runAsProduction();
    for (const url of ["https://127.0.0.1/notify", "https://127.1:8443/", "https://2130706433/", "https://[::1]/", "https://[::ffff:127.0.0.1]/"]) {
      const response = await post("/api/initdynamic", { amount: 250, currency: "DKK", notificationurl: url });
      expect({ url, body: response.body }).toEqual({
        url,
        body: { error: "INVALID_PARAMETER", errordescription: "notificationurl: must not point to a loopback address" },
      });
    }
    const plain = await post("/api/initdynamic", { amount: 250, currency: "DKK", notificationurl: "http://shop.example/notify" });
    expect(plain.body).toEqual({ error: "INVALID_PARAMETER", errordescription: "notificationurl: must be an https URL" });
  });

  it("item 1: local mode keeps loopback receivers working, and an operator-named private network is allowed", async () => {
    expect(config().isProduction).toBe(false);
    const local = await post("/api/initdynamic", { amount: 250, currency: "DKK", notificationurl: "http://127.0.0.1:9/notify" });
    expect(local.status).toBe(200);
    runAsProduction({ EGRESS_ALLOWED_NETWORKS: "10.1.0.0/16" });
    const named = await post("/api/initdynamic", { amount: 250, currency: "DKK", notificationurl: "https://10.1.2.3/notify" });
    expect(named.status).toBe(200);
    const other = await post("/api/initdynamic", { amount: 250, currency: "DKK", notificationurl: "https://10.2.0.1/notify" });
    expect(other.body.errordescription).toBe("notificationurl: must not point to a private (RFC 1918) address");
  });
});

describe("the back office's notification addresses", () => {
  it("item 1: the notification URL forms (and send test notification) refuse private, link-local and mapped addresses with a clear message", () => {
    const schema = backOfficeUrlSchema({ allowHttp: true });
    for (const url of ALWAYS_REFUSED) {
      const result = schema.safeParse(url);
      expect({ url, success: result.success }).toEqual({ url, success: false });
      expect(result.error?.issues.map((issue) => issue.message).join("; ")).toMatch(/This address is not allowed: it must not point to /);
    }
    expect(schema.safeParse("https://shop.example/notify").success).toBe(true);
  });

  it("item 1: in production the forms refuse loopback addresses", () => {
    runAsProduction();
    const result = backOfficeUrlSchema({ allowHttp: false }).safeParse("https://[::1]:8443/notify");
    expect(result.error?.issues.map((issue) => issue.message)).toContain("This address is not allowed: it must not point to a loopback address");
  });
});
