// The Worldline Direct sandbox mounted by the launcher with the other sandboxes' fault modes (a
// sandbox-only extension), over HTTP: the faults act as they do at the other acquirers, and the
// documented way back from a lost answer, the same request with the same X-GCS-Idempotence-Key,
// finds the one payment the platform made.
import { readFileSync } from "node:fs";
import path from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { armAcquirerFault, clearAcquirerFaults } from "@/lib/sandboxes/acquirers/faults";
import { startSandboxes, type RunningSandboxes } from "@/lib/sandboxes/acquirers/start-sandboxes";
import { WORLDLINE_SANDBOX_ACCOUNTS } from "@/lib/sandboxes/acquirers/bambora/worldline";
import { v1HmacSignature } from "@/lib/sandboxes/acquirers/bambora/worldline/v1hmac";

const account = WORLDLINE_SANDBOX_ACCOUNTS[0]!;
const expiry = `12${String((new Date().getUTCFullYear() + 2) % 100).padStart(2, "0")}`;

function body(amount: number) {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  const sdk: any = JSON.parse(
    readFileSync(path.join(__dirname, "../../../fixtures/acquirers/bambora-worldline/create-payment-request.json"), "utf8"),
  ).request.body;
  sdk.order = { amountOfMoney: { amount, currencyCode: "DKK" }, references: { merchantReference: `order-${amount}` } };
  sdk.cardPaymentMethodSpecificInput.card = { cvv: "123", cardNumber: "4330264936344675", expiryDate: expiry };
  sdk.cardPaymentMethodSpecificInput.threeDSecure = { skipAuthentication: true };
  return sdk;
}

let sandboxes: RunningSandboxes;

function post(pathname: string, payload: unknown, key: string, signal?: AbortSignal): Promise<Response> {
  const date = new Date().toUTCString();
  const headers = new Headers({ date, "content-type": "application/json", "x-gcs-idempotence-key": key });
  const signature = v1HmacSignature(
    { method: "POST", contentType: "application/json", date, headers, pathAndQuery: pathname },
    account.secretApiKey,
  );
  headers.set("authorization", `GCS v1HMAC:${account.apiKeyId}:${signature}`);
  return fetch(`${sandboxes.urls["bambora-worldline"]}${pathname}`, { method: "POST", headers, body: JSON.stringify(payload), signal });
}

describe("worldline direct sandbox: fault modes on the wire", () => {
  beforeAll(async () => {
    sandboxes = await startSandboxes({ processors: [], threeDs: false, register: false, extensions: true, worldline: true, hangMs: 3_000 });
  });
  afterAll(async () => {
    await sandboxes.close();
  });
  afterEach(() => clearAcquirerFaults());

  it("502 after acting: the payment exists, and the same idempotence key answers with it", async () => {
    const fault = armAcquirerFault({ mode: "502_after_acting", operation: "authorize", processor: "bambora", amount: 4101 });
    const lost = await post(`/v2/${account.merchantId}/payments`, body(4101), "key-502");
    expect(lost.status).toBe(502);
    expect(fault.hits()).toBe(1);
    const again = await post(`/v2/${account.merchantId}/payments`, body(4101), "key-502");
    expect(again.status).toBe(201);
    expect(again.headers.get("x-gcs-idempotence-request-timestamp")).toBeTruthy();
    const { payment } = await again.json();
    expect(payment.status).toBe("PENDING_CAPTURE");
    const made = sandboxes.ledgers["bambora-worldline"]!.transactions().filter((transaction) => transaction.amount === 4101);
    expect(made.map((transaction) => transaction.id)).toEqual([payment.id]);
  });

  it("answer lost after acting: the caller gives up, the repeat with the key finds the one payment", async () => {
    armAcquirerFault({ mode: "answer_lost_after_acting", operation: "authorize", processor: "bambora", amount: 4102 });
    await expect(post(`/v2/${account.merchantId}/payments`, body(4102), "key-lost", AbortSignal.timeout(500))).rejects.toThrow();
    const again = await post(`/v2/${account.merchantId}/payments`, body(4102), "key-lost");
    expect(again.status).toBe(201);
    expect(sandboxes.ledgers["bambora-worldline"]!.transactions().filter((transaction) => transaction.amount === 4102)).toHaveLength(1);
  });

  it("a duplicate on the wire with the key makes one payment; a refusal is Direct's 400 and makes none", async () => {
    armAcquirerFault({ mode: "duplicate_request", operation: "authorize", processor: "bambora", amount: 4103 });
    expect((await post(`/v2/${account.merchantId}/payments`, body(4103), "key-dup")).status).toBe(201);
    expect(sandboxes.ledgers["bambora-worldline"]!.transactions().filter((transaction) => transaction.amount === 4103)).toHaveLength(1);
    armAcquirerFault({ mode: "refused", operation: "authorize", processor: "bambora", amount: 4104 });
    const refused = await post(`/v2/${account.merchantId}/payments`, body(4104), "key-refused");
    expect(refused.status).toBe(400);
    expect((await refused.json()).errors[0]).toMatchObject({ errorCode: "50001111" });
    expect(sandboxes.ledgers["bambora-worldline"]!.transactions().filter((transaction) => transaction.amount === 4104)).toHaveLength(0);
  });
});
