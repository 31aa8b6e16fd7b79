// The strict Worldline Direct sandbox answers as Worldline's references say, for requests built by
// hand from those references (the SDKs' own request bodies, tests/fixtures/acquirers/bambora-worldline/),
// signed by the sandbox's own reading of v1HMAC (proved against the SDKs' vectors in
// signature.test.ts), never by our connector.
import { readFileSync } from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { WORLDLINE_SANDBOX_ACCOUNTS, createWorldlineSandbox } from "@/lib/sandboxes/acquirers/bambora/worldline";
import { v1HmacSignature } from "@/lib/sandboxes/acquirers/bambora/worldline/v1hmac";
import { startSandboxServer, type RunningSandbox } from "@/lib/sandboxes/acquirers/serve";
import { quietFor } from "@/tests/helpers/eventually";

// eslint-disable-next-line @typescript-eslint/no-explicit-any
const fixture = (name: string): any =>
  JSON.parse(readFileSync(path.join(__dirname, "../../../fixtures/acquirers/bambora-worldline", `${name}.json`), "utf8"));

const account = WORLDLINE_SANDBOX_ACCOUNTS[0]!;
const other = WORLDLINE_SANDBOX_ACCOUNTS[1]!;
const expiry = `12${String((new Date().getUTCFullYear() + 2) % 100).padStart(2, "0")}`;

interface CallOptions {
  body?: unknown;
  rawBody?: string;
  key?: typeof account;
  merchantId?: string;
  date?: string;
  headers?: Record<string, string>;
  tamper?: (signature: string) => string;
  base?: string;
}

function signedRequest(method: "GET" | "POST", pathname: string, options: CallOptions = {}): Request {
  const key = options.key ?? account;
  const date = options.date ?? new Date().toUTCString();
  const text = options.rawBody ?? (method === "POST" ? JSON.stringify(options.body ?? {}) : undefined);
  const headers = new Headers({ date, ...(method === "POST" ? { "content-type": "application/json" } : {}), ...(options.headers ?? {}) });
  const url = new URL(`${options.base ?? "http://worldline.test"}${pathname}`);
  const signature = v1HmacSignature(
    { method, contentType: headers.get("content-type"), date, headers, pathAndQuery: `${url.pathname}${url.search}` },
    key.secretApiKey,
  );
  headers.set("authorization", `GCS v1HMAC:${key.apiKeyId}:${options.tamper ? options.tamper(signature) : signature}`);
  return new Request(url, { method, headers, body: text });
}

/** The Node SDK's create request, with a test card of Direct's and a skip of the platform's own 3-D Secure. */
function sdkCreateBody(overrides: { card?: Record<string, string>; amount?: number; currency?: string } = {}) {
  const body = structuredClone(fixture("create-payment-request").request.body);
  body.order.amountOfMoney = { currencyCode: overrides.currency ?? "DKK", amount: overrides.amount ?? 2980 };
  body.order.references = { merchantReference: "AcmeOrder0001" };
  delete body.order.shoppingCart;
  body.cardPaymentMethodSpecificInput.card = {
    cvv: "123",
    cardNumber: "4330264936344675",
    expiryDate: expiry,
    cardholderName: "Wile E. Coyote",
    ...overrides.card,
  };
  body.cardPaymentMethodSpecificInput.threeDSecure = { skipAuthentication: true };
  return body;
}

const paymentsPath = (merchantId = account.merchantId) => `/v2/${merchantId}/payments`;

describe("strict worldline direct sandbox", () => {
  let server: RunningSandbox | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  it("refuses a request missing a required property with 400 PARAMETER_NOT_FOUND_IN_REQUEST naming each property, and creates nothing", async () => {
    const { handler, ledger } = createWorldlineSandbox();
    const body = sdkCreateBody();
    delete body.order.amountOfMoney.amount;
    delete body.cardPaymentMethodSpecificInput.card.expiryDate;
    const response = await handler(signedRequest("POST", paymentsPath(), { body }));
    expect(response.status).toBe(400);
    const answer = await response.json();
    const recorded = fixture("error-parameter-not-found").response.body.errors[0];
    expect(answer.errors.map((entry: { propertyName: string }) => entry.propertyName)).toEqual([
      "order.amountOfMoney.amount",
      "cardPaymentMethodSpecificInput.card.expiryDate",
    ]);
    for (const entry of answer.errors)
      expect(entry).toMatchObject({
        id: recorded.id,
        errorCode: recorded.code,
        httpStatusCode: 400,
        category: recorded.category,
        message: recorded.message,
      });
    expect(answer.errorId).toEqual(expect.any(String));
    expect(ledger.transactions()).toEqual([]);
  });

  it("refuses a bad, missing or foreign signature and a stale Date with 403, and creates nothing", async () => {
    const { handler, ledger } = createWorldlineSandbox();
    const body = sdkCreateBody();
    const flip = (signature: string) => (signature.startsWith("A") ? `B${signature.slice(1)}` : `A${signature.slice(1)}`);
    const refused = [
      signedRequest("POST", paymentsPath(), { body, tamper: flip }),
      signedRequest("POST", paymentsPath(), { body, key: { ...account, secretApiKey: "not-the-secret" } }),
      signedRequest("POST", paymentsPath(), { body, date: new Date(Date.now() - 10 * 60_000).toUTCString() }),
      // Another merchant's PSPID with this merchant's key (the PHP SDK: an unknown merchant id is 403).
      signedRequest("POST", paymentsPath(other.merchantId), { body }),
      new Request(`http://worldline.test${paymentsPath()}`, {
        method: "POST",
        headers: { "content-type": "application/json", date: new Date().toUTCString() },
        body: JSON.stringify(body),
      }),
    ];
    for (const request of refused) {
      const response = await handler(request);
      expect(response.status).toBe(403);
      expect((await response.json()).errors[0]).toMatchObject({ httpStatusCode: 403, id: "MISSING_OR_INVALID_AUTHORIZATION" });
    }
    // The signature covers the idempotence key: a key added after signing is refused.
    const signed = signedRequest("POST", paymentsPath(), { body });
    signed.headers.set("x-gcs-idempotence-key", "added-later");
    expect((await handler(signed)).status).toBe(403);
    expect(ledger.transactions()).toEqual([]);
  });

  it("refuses a field the SDK's schema does not have, and a card failing the Luhn check (the Java SDK's recorded 400)", async () => {
    const { handler } = createWorldlineSandbox();
    const extra = sdkCreateBody();
    extra.cardPaymentMethodSpecificInput.cardNumber = "4330264936344675";
    const unknownField = await handler(signedRequest("POST", paymentsPath(), { body: extra }));
    expect(unknownField.status).toBe(400);
    expect((await unknownField.json()).errors[0].message).toMatch(/cardNumber/);
    const luhn = await handler(
      signedRequest("POST", paymentsPath(), { body: sdkCreateBody({ card: { cardNumber: "4330264936344676" } }) }),
    );
    expect(luhn.status).toBe(400);
    expect((await luhn.json()).errors[0]).toMatchObject({ errorCode: fixture("error-luhn-check").response.body.errors[0].code });
  });

  it("authorizes a documented test card in DKK (201, PENDING_CAPTURE 5, Location), captures partially twice, refunds partially, lists the operations", async () => {
    const { handler, ledger } = createWorldlineSandbox();
    const created = await handler(signedRequest("POST", paymentsPath(), { body: sdkCreateBody() }));
    expect(created.status).toBe(201);
    const { payment } = await created.json();
    expect(payment).toMatchObject({
      status: "PENDING_CAPTURE",
      statusOutput: { statusCode: 5, statusCategory: "PENDING_MERCHANT", isAuthorized: true, isCancellable: true },
    });
    expect(payment.id).toMatch(/^\d{10}_0$/);
    expect(created.headers.get("location")).toMatch(new RegExp(`/v2/${account.merchantId}/payments/${payment.id}$`));
    expect(payment.paymentOutput.cardPaymentMethodSpecificOutput).toMatchObject({
      paymentProductId: 1,
      authorisationCode: expect.any(String),
      card: { cardNumber: "************4675", bin: "433026" },
    });
    const first = await handler(
      signedRequest("POST", `${paymentsPath()}/${payment.id}/capture`, {
        body: { amount: 1000, operationReferences: { merchantReference: "capture-1" } },
      }),
    );
    expect(first.status).toBe(200);
    expect(await first.json()).toMatchObject({
      id: expect.stringMatching(/_1$/),
      status: "CAPTURE_REQUESTED",
      statusOutput: { statusCode: 91 },
    });
    expect((await handler(signedRequest("POST", `${paymentsPath()}/${payment.id}/capture`, { body: { amount: 2000 } }))).status).toBe(400);
    expect((await handler(signedRequest("POST", `${paymentsPath()}/${payment.id}/capture`, { body: { amount: 1980 } }))).status).toBe(200);
    const refund = await handler(
      signedRequest("POST", `${paymentsPath()}/${payment.id}/refund`, {
        body: { amountOfMoney: { amount: 500, currencyCode: "DKK" }, operationReferences: { merchantReference: "refund-1" } },
      }),
    );
    expect(refund.status).toBe(201);
    expect(await refund.json()).toMatchObject({ status: "REFUND_REQUESTED", statusOutput: { statusCode: 81 } });
    expect(
      (
        await handler(
          signedRequest("POST", `${paymentsPath()}/${payment.id}/refund`, {
            body: { amountOfMoney: { amount: 2481, currencyCode: "DKK" } },
          }),
        )
      ).status,
    ).toBe(400);
    const details = await (await handler(signedRequest("GET", `${paymentsPath()}/${payment.id}/details`))).json();
    expect(details.status).toBe("CAPTURED");
    expect(
      details.operations.map(
        (operation: { operationReferences?: { merchantReference: string } }) => operation.operationReferences?.merchantReference,
      ),
    ).toEqual(["capture-1", undefined, "refund-1"]);
    expect(ledger.byId(payment.id)).toMatchObject({ amount: 2980, currency: "DKK", capturedAmount: 2980, refundedAmount: 500 });
  });

  it("cancels a pre-authorization, refuses to cancel a final authorization, and declines a documented declined card with 402 and the payment", async () => {
    const { handler, ledger } = createWorldlineSandbox();
    const { payment } = await (await handler(signedRequest("POST", paymentsPath(), { body: sdkCreateBody() }))).json();
    const cancelled = await handler(signedRequest("POST", `${paymentsPath()}/${payment.id}/cancel`, { body: {} }));
    expect(cancelled.status).toBe(200);
    expect((await cancelled.json()).payment).toMatchObject({ status: "CANCELLED", statusOutput: { statusCode: 6 } });
    expect(ledger.byId(payment.id)).toMatchObject({ voided: true });
    const finalBody = sdkCreateBody();
    finalBody.cardPaymentMethodSpecificInput.authorizationMode = "FINAL_AUTHORIZATION";
    const final = (await (await handler(signedRequest("POST", paymentsPath(), { body: finalBody }))).json()).payment;
    expect((await handler(signedRequest("POST", `${paymentsPath()}/${final.id}/cancel`, { body: {} }))).status).toBe(400);
    const mastercard = sdkCreateBody({ card: { cardNumber: "5168645305790452" } });
    mastercard.cardPaymentMethodSpecificInput.paymentProductId = 3;
    const declined = await handler(signedRequest("POST", paymentsPath(), { body: mastercard }));
    expect(declined.status).toBe(402);
    const answer = await declined.json();
    expect(answer.errors[0]).toMatchObject({ errorCode: "30051001", httpStatusCode: 402 });
    expect(answer.paymentResult.payment).toMatchObject({
      status: "REJECTED",
      statusOutput: { statusCode: 2, statusCategory: "UNSUCCESSFUL" },
    });
  });

  it("a non-existing card of the product is REJECTED (the PHP SDK's declined-payment test); a product the account lacks is refused", async () => {
    const { handler } = createWorldlineSandbox();
    const declined = await handler(
      signedRequest("POST", paymentsPath(), { body: sdkCreateBody({ card: { cardNumber: "1234567890123452" } }) }),
    );
    expect(declined.status).toBe(402);
    expect((await declined.json()).paymentResult.payment).toMatchObject({ id: expect.any(String), status: "REJECTED" });
    const dankort = sdkCreateBody();
    dankort.cardPaymentMethodSpecificInput.paymentProductId = 123;
    const refused = await handler(signedRequest("POST", paymentsPath(other.merchantId), { body: dankort, key: other }));
    expect(refused.status).toBe(400);
    expect((await refused.json()).errors[0]).toMatchObject({ errorCode: "50001011" });
  });

  it("without our own 3-D Secure result or a skip, the platform wants to authenticate itself: REDIRECTED, nothing authorized", async () => {
    const { handler, ledger } = createWorldlineSandbox();
    const body = sdkCreateBody();
    delete body.cardPaymentMethodSpecificInput.threeDSecure;
    const response = await handler(signedRequest("POST", paymentsPath(), { body }));
    expect(response.status).toBe(201);
    expect(await response.json()).toMatchObject({
      payment: { status: "REDIRECTED", statusOutput: { statusCode: 46 } },
      merchantAction: { actionType: "REDIRECT" },
    });
    expect(ledger.transactions()).toEqual([]);
  });

  it("answers a repeat with the same idempotence key with the first outcome and its timestamp, even with another body; one payment only", async () => {
    const { handler, ledger } = createWorldlineSandbox();
    const headers = { "x-gcs-idempotence-key": "0123456789abcdef0123456789abcdef" };
    const first = await handler(signedRequest("POST", paymentsPath(), { body: sdkCreateBody(), headers }));
    const again = await handler(signedRequest("POST", paymentsPath(), { body: sdkCreateBody({ amount: 1 }), headers }));
    expect(again.status).toBe(first.status);
    expect((await again.json()).payment.id).toBe((await first.json()).payment.id);
    expect(Number(again.headers.get("x-gcs-idempotence-request-timestamp"))).toBeGreaterThan(0);
    expect(ledger.transactions()).toHaveLength(1);
    const tooLong = await handler(
      signedRequest("POST", paymentsPath(), { body: sdkCreateBody(), headers: { "x-gcs-idempotence-key": "k".repeat(41) } }),
    );
    expect(tooLong.status).toBe(400);
  });

  it("answers 409 (1409) while the first request with the key is still running", async () => {
    const { handler } = createWorldlineSandbox({ sharedTestCards: true, hangMs: 2_000 });
    const headers = { "x-gcs-idempotence-key": "slow-one" };
    const controller = new AbortController();
    // The service's "does not answer in time" card holds the first request.
    const slow = signedRequest("POST", paymentsPath(), { body: sdkCreateBody({ card: { cardNumber: "4000000000000119" } }), headers });
    const pending = handler(new Request(slow, { signal: controller.signal }));
    await quietFor(50, "the first request is under way");
    const conflict = await handler(signedRequest("POST", paymentsPath(), { body: sdkCreateBody(), headers }));
    expect(conflict.status).toBe(409);
    expect((await conflict.json()).errors).toEqual([expect.objectContaining({ errorCode: "1409", httpStatusCode: 409 })]);
    controller.abort();
    expect((await pending).status).toBe(504);
  });

  it("serves over HTTP like the other sandboxes, and tests the connection; each merchant sees only its own payments", async () => {
    const sandbox = createWorldlineSandbox();
    server = await startSandboxServer({ name: "worldline", handler: sandbox.handler });
    const call = (request: Request) => fetch(request);
    const ok = await call(signedRequest("GET", `/v2/${account.merchantId}/services/testconnection`, { base: server.url }));
    expect(ok.status).toBe(200);
    expect(await ok.json()).toEqual({ result: "OK" });
    const created = await call(signedRequest("POST", paymentsPath(), { body: sdkCreateBody(), base: server.url }));
    expect(created.status).toBe(201);
    const { payment } = await created.json();
    const foreign = await call(signedRequest("GET", `${paymentsPath(other.merchantId)}/${payment.id}`, { key: other, base: server.url }));
    expect(foreign.status).toBe(404);
    expect((await call(signedRequest("GET", `${paymentsPath()}/${payment.id}`, { base: server.url }))).status).toBe(200);
    expect((await call(signedRequest("GET", "/v1/anything", { base: server.url }))).status).toBe(404);
  });
});
