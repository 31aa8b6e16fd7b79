// The strict Clearhaus Merchant API sandbox refuses what the reference refuses (or what it leaves to
// the sandbox, marked so there): no Bearer token, other grants, unknown clients, unknown modifiers
// and parameters, unknown paths; and its scenarios exist only with the extensions on.
import { describe, expect, it } from "vitest";
import { SandboxLedger } from "@/lib/sandboxes/acquirers/ledger";
import { createClearhausMerchantApiSandbox } from "@/lib/sandboxes/acquirers/clearhaus/merchant-api";
import { MERCHANT_API_SANDBOX_CLIENTS } from "@/lib/sandboxes/acquirers/clearhaus/merchant-api/clients";

const ROOT = "http://127.0.0.1:4999";
const client = MERCHANT_API_SANDBOX_CLIENTS[0]!;
const basic = (id: string, secret: string) => `Basic ${Buffer.from(`${id}:${secret}`).toString("base64")}`;

function sandbox(extensions = false) {
  return createClearhausMerchantApiSandbox({ ledger: new SandboxLedger(), extensions }).handler;
}

function tokenRequest(form: Record<string, string>, authorization = basic(client.clientId, client.clientSecret)) {
  return new Request(`${ROOT}/oauth/token`, {
    method: "POST",
    headers: { authorization, "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams(form).toString(),
  });
}

async function bearer(handler: ReturnType<typeof sandbox>): Promise<string> {
  const answer = await handler(tokenRequest({ grant_type: "client_credentials", audience: ROOT }));
  expect(answer.status).toBe(200);
  const body = (await answer.json()) as { access_token: string; expires_in: number };
  expect(body.expires_in).toBeGreaterThan(0);
  return `Bearer ${body.access_token}`;
}

describe("Clearhaus Merchant API sandbox refusals", () => {
  it("answers 401 to every resource without a valid Bearer token, the root included", async () => {
    const handler = sandbox();
    for (const path of ["/", "/disputes", "/settlements", "/transactions", "/accounts"]) {
      expect((await handler(new Request(`${ROOT}${path}`))).status).toBe(401);
      expect((await handler(new Request(`${ROOT}${path}`, { headers: { authorization: "Bearer made-up" } }))).status).toBe(401);
      expect((await handler(new Request(`${ROOT}${path}`, { headers: { authorization: basic(client.clientId, client.clientSecret) } }))).status).toBe(401);
    }
  });

  it("grants client credentials only: the password grant, a wrong audience and an unknown client are refused", async () => {
    const handler = sandbox();
    const password = await handler(tokenRequest({ grant_type: "password", username: "a", password: "b", audience: ROOT }));
    expect(password.status).toBe(400);
    expect(await password.json()).toEqual({ error: "unsupported_grant_type" });
    expect((await handler(tokenRequest({ grant_type: "client_credentials", audience: "https://merchant.clearhaus.com" }))).status).toBe(400);
    const wrong = await handler(tokenRequest({ grant_type: "client_credentials", audience: ROOT }, basic(client.clientId, "not-the-secret")));
    expect(wrong.status).toBe(401);
    expect(await wrong.json()).toEqual({ error: "invalid_client" });
  });

  it("answers 400 for unknown query modifiers, bad values and unknown parameters, and 404 for unknown paths", async () => {
    const handler = sandbox();
    const authorization = await bearer(handler);
    const get = (path: string) => handler(new Request(`${ROOT}${path}`, { headers: { authorization } }));
    expect((await get("/disputes?query=opened%3A%3E%3D2024-01-01")).status).toBe(200);
    expect((await get("/disputes?query=updated%3A%3E%3D2024-01-01")).status).toBe(400);
    expect((await get("/disputes?query=status%3Apending")).status).toBe(400);
    // Comma lists are documented for reason and reason_code only (the sandbox's reading of DQL).
    expect((await get("/disputes?query=status%3Aopen%2Crefuted")).status).toBe(400);
    expect((await get("/disputes?query=reason%3Afraud%2Cduplicate")).status).toBe(200);
    expect((await get("/settlements?query=settled%3Amaybe")).status).toBe(400);
    expect((await get("/settlements?query=period.end_date%3A%3E%3D2024-01-01")).status).toBe(200);
    expect((await get("/transactions?query=reference%3Aorder-1")).status).toBe(400);
    expect((await get("/transactions?next=forged")).status).toBe(400);
    expect((await get("/disputes?per_page=1000")).status).toBe(400);
    expect((await get("/disputes?sort=due")).status).toBe(400);
    expect((await get("/chargebacks")).status).toBe(404);
    expect((await get("/disputes/c6d9153b-32cb-472a-9dc9-553e9c79ea22")).status).toBe(404);
  });

  it("has no scenario paths unless its extensions are on", async () => {
    const body = JSON.stringify({ transaction_id: "x", reason: "fraud", reason_code: "10.4" });
    const post = (handler: ReturnType<typeof sandbox>) =>
      handler(new Request(`${ROOT}/sandbox/disputes`, { method: "POST", headers: { "content-type": "application/json" }, body }));
    expect((await post(sandbox(false))).status).toBe(404);
    // With them on, a transaction the ledger does not have is refused.
    expect((await post(sandbox(true))).status).toBe(400);
  });

  it("adds, as an extension, a transaction another system made on a known account: listed as the account's, and a dispute opens on it", async () => {
    const handler = sandbox(true);
    const post = (path: string, body: unknown) =>
      handler(new Request(`${ROOT}${path}`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) }));
    expect((await post("/sandbox/transactions", { merchant_id: "no-such-account", amount: 2500, currency: "DKK" })).status).toBe(400);
    expect((await post("/sandbox/transactions", { merchant_id: client.merchantId, amount: -1, currency: "DKK" })).status).toBe(400);
    expect((await sandbox(false)(new Request(`${ROOT}/sandbox/transactions`, { method: "POST" }))).status).toBe(404);
    const added = await post("/sandbox/transactions", { merchant_id: client.merchantId, amount: 2500, currency: "DKK" });
    expect(added.status).toBe(201);
    const transaction = (await added.json()) as { id: string; type: string; amount: number; currency: string };
    expect(transaction).toMatchObject({ type: "capture", amount: 2500, currency: "DKK" });
    expect((await post("/sandbox/disputes", { transaction_id: transaction.id, reason: "product_not_provided", reason_code: "13.1" })).status).toBe(201);
    const listed = await handler(new Request(`${ROOT}/transactions`, { headers: { authorization: await bearer(handler) } }));
    expect(listed.status).toBe(200);
    expect(JSON.stringify(await listed.json())).toContain(transaction.id);
  });
});
