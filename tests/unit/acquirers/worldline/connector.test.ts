// The Worldline Direct connector (lib/acquirers/bambora/worldline/connector.ts) against the strict
// sandbox over HTTP: a DKK pre-authorization with our own 3-D Secure result, partial capture, partial
// refund, a cancel, a merchant-initiated payment naming the first payment's scheme transaction id, a
// decline with its class, a refusal of a bad key, a capture found again by our reference after its
// answer was lost, and the connection test.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CardDetails } from "@/lib/cards/card-details";
import { createWorldlineConnector } from "@/lib/acquirers/bambora/worldline/connector";
import { WORLDLINE_SANDBOX_ACCOUNTS, createWorldlineSandbox, worldlineSandboxCredentials } from "@/lib/sandboxes/acquirers/bambora/worldline";
import { startSandboxServer, type RunningSandbox } from "@/lib/sandboxes/acquirers/serve";
import { newId } from "@/lib/ids";

const account = WORLDLINE_SANDBOX_ACCOUNTS[0]!;
const credentials = worldlineSandboxCredentials(account);
const nextYear = new Date().getUTCFullYear() + 1;
const card = (pan: string) => new CardDetails({ pan, expMonth: 12, expYear: nextYear, securityCode: "123" });

let server: RunningSandbox;
let connector: ReturnType<typeof createWorldlineConnector>;

beforeAll(async () => {
  const sandbox = createWorldlineSandbox({});
  server = await startSandboxServer({ name: "worldline", handler: sandbox.handler });
  connector = createWorldlineConnector({ baseUrl: server.url, timeoutMs: 5000 });
});
afterAll(async () => server?.close());

const call = { credentials };

async function authorize(pan = "4330264936344675", extra: Partial<Parameters<typeof connector.authorize>[0]> = {}) {
  return connector.authorize(
    {
      operationId: newId(),
      paymentId: newId(),
      amount: 12500n,
      currency: "DKK",
      card: card(pan),
      credentialOnFile: { initiator: "cardholder", storeCredential: true },
      customerIp: "192.0.2.10",
      ...extra,
    },
    call,
  );
}

describe("Worldline Direct connector", () => {
  it("authorizes in DKK with our frictionless 3-D Secure result, then captures, refunds in part and finds a lost capture by our reference", async () => {
    const authorization = await authorize("4330264936344675", {
      threeDs: {
        eci: "05",
        authenticationValue: "AAABBEg0VhI0VniQEjRWAAAAAAA=",
        dsTransId: "f25084f0-5b16-4c0a-ae5d-b24808a95e4b",
        threeDsServerTransId: "8a880dc0-d2d2-4067-bcb1-b08d1690b26e",
        acsTransId: "d7c1ee99-9478-44a6-b1f2-391e29c6b340",
        version: "2.2.0",
        transStatus: "Y",
        messageType: "ARes",
      },
    });
    expect(authorization).toMatchObject({ status: "approved", responsecode: "00", declineClass: "approved", eci: "05" });
    expect(authorization.processorReference).toMatch(/^\w+$/);
    const paymentId = authorization.processorReference!;

    const captureId = newId();
    const capture = await connector.capture({ operationId: captureId, authorizationReference: paymentId, amount: 5000n, currency: "DKK" }, call);
    expect(capture).toMatchObject({ status: "approved", responsecode: "00" });

    const refund = await connector.refund({ operationId: newId(), authorizationReference: paymentId, amount: 2000n, currency: "DKK" }, call);
    expect(refund).toMatchObject({ status: "approved", responsecode: "00" });

    // The capture's answer lost: GetPaymentDetails lists it under our reference; one never made is not there.
    expect(await connector.lookupOperation({ kind: "capture", operationId: captureId, authorizationReference: paymentId }, call)).toMatchObject({
      status: "approved",
    });
    expect(await connector.lookupOperation({ kind: "capture", operationId: newId(), authorizationReference: paymentId }, call)).toBeUndefined();
  });

  it("cancels an authorization, and a merchant-initiated payment names the first payment's scheme transaction id", async () => {
    const first = await authorize();
    expect(first.status).toBe("approved");
    const cancelled = await connector.void(
      { operationId: newId(), authorizationReference: first.processorReference!, amount: 12500n, currency: "DKK" },
      call,
    );
    expect(cancelled).toMatchObject({ status: "approved", responsecode: "00" });

    const mit = await connector.authorize(
      {
        operationId: newId(),
        paymentId: newId(),
        amount: 4000n,
        currency: "DKK",
        card: new CardDetails({ pan: "4330264936344675", expMonth: 12, expYear: nextYear }),
        credentialOnFile: { initiator: "merchant", paymentType: "unscheduled", previousSchemeTransactionId: first.scheme?.schemeTransactionId },
      },
      call,
    );
    expect(mit, mit.message).toMatchObject({ status: "approved", responsecode: "00" });
  });

  it("a declined test card is a decline with its class and Worldline's code", async () => {
    const declined = await authorize("5168645305790452");
    expect(declined).toMatchObject({ status: "declined", failure: "declined", responsecode: "05", declineClass: "declined-soft", acquirerCode: "30051001" });
  });

  it("a key the platform does not know is refused without a payment, and the connection test says so", async () => {
    const wrong = { credentials: { ...credentials, secretApiKey: "not-the-secret-of-this-key" } };
    const refused = await connector.authorize(
      { operationId: newId(), paymentId: newId(), amount: 100n, currency: "DKK", card: card("4330264936344675") },
      wrong,
    );
    expect(refused).toMatchObject({ status: "failed", failure: "declined", responsecode: "03", declineClass: "technical" });
    expect(await connector.checkConnection(wrong)).toMatchObject({ ok: false });
    expect(await connector.checkConnection(call)).toMatchObject({ ok: true });
  });

  it("refuses before sending what the platform cannot take (an unknown currency)", async () => {
    const refused = await authorize("4330264936344675", { currency: "XXX" as never });
    expect(refused.status).toBe("failed");
  });
});
