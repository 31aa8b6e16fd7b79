// The Bambora North America connector against the strict sandbox over real HTTP: every operation the
// Payments API v1 has (pre-authorization with and without 3-D Secure data, one completion, returns,
// voids, the report search by our order number), what it refuses and why, and the sandbox's own
// strictness (its test cards, its errors, 404 for the Online Checkout endpoints of earlier versions).
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CardDetails } from "@/lib/cards/card-details";
import { newId } from "@/lib/ids";
import { BAMBORA_LOOKUPS, createBamboraConnector } from "@/lib/acquirers/bambora/client";
import type { BamboraCredentials } from "@/lib/acquirers/bambora/credentials";
import { bindCredentials } from "@/lib/acquirers/registry";
import type { AuthorizeRequest, ProcessorConnector } from "@/lib/acquirers/contract";
import { createBamboraSandbox, type BamboraSandbox } from "@/lib/sandboxes/acquirers/bambora";
import { BAMBORA_SANDBOX_ACCOUNTS, bamboraSandboxCredentials } from "@/lib/sandboxes/acquirers/bambora/accounts";
import { startSandboxServer, type RunningSandbox } from "@/lib/sandboxes/acquirers/serve";

const SLOW_MS = 1_500;
let clock = new Date();
let sandbox: BamboraSandbox;
let server: RunningSandbox;

beforeAll(async () => {
  sandbox = createBamboraSandbox({ sharedTestCards: true, slowCardDelayMs: SLOW_MS, hangMs: 10_000, now: () => clock });
  server = await startSandboxServer({ name: "bambora", handler: sandbox.handler });
});
afterAll(async () => {
  await server.close();
});

const credentials = (index = 0): BamboraCredentials => bamboraSandboxCredentials(BAMBORA_SANDBOX_ACCOUNTS[index]!);

function connector(options: { index?: number; credentials?: Partial<BamboraCredentials>; timeoutMs?: number; baseUrl?: string } = {}) {
  return bindCredentials(
    createBamboraConnector({ baseUrl: options.baseUrl ?? server.url, timeoutMs: options.timeoutMs ?? 5_000 }),
    { ...credentials(options.index), ...options.credentials },
    "account-1",
    "test",
  );
}

const nextYear = new Date().getUTCFullYear() + 2;
const card = (pan: string, securityCode: string | undefined = pan.startsWith("3") ? "1234" : "123") =>
  new CardDetails({ pan, expMonth: 12, expYear: nextYear, securityCode, holderName: "Jo Tester" });

function authorize(pan: string, amount = 10_000n, extra: Partial<AuthorizeRequest> = {}, on: ProcessorConnector = connector()) {
  return on.authorize({ operationId: newId(), paymentId: newId(), amount, currency: "CAD", card: card(pan), ...extra });
}

async function preAuthorization(amount = 10_000n, on: ProcessorConnector = connector()) {
  const result = await authorize("4030000010001234", amount, {}, on);
  expect(result.status).toBe("approved");
  return result.processorReference!;
}

const follow = (authorizationReference: string, amount: bigint, extra: { captureReference?: string } = {}) => ({
  operationId: newId(),
  authorizationReference,
  amount,
  currency: "CAD",
  ...extra,
});

describe("authorizations (POST /v1/payments, card.complete false)", () => {
  it.each(["4030000010001234", "5100000010001004", "2223000048400011", "371100001000131", "6011500080009080"])(
    "approves the documented approval card %s with Bambora's transaction id and auth code",
    async (pan) => {
      const result = await authorize(pan);
      expect(result).toMatchObject({ status: "approved", responsecode: "00", authorizationcode: "TEST", acquirerCode: "1" });
      expect(result.processorReference).toMatch(/^\d{8,9}$/);
      expect(sandbox.ledger.byId(result.processorReference!)).toMatchObject({ amount: 10_000, approved: true, capturedAmount: 0 });
    },
  );

  it.each(["4003050500040005", "5100000020002000", "342400001000180", "6011000900901111"])(
    "declines the documented decline card %s: 402 code 7, a decline (05), never a retry",
    async (pan) => {
      expect(await authorize(pan)).toMatchObject({ status: "declined", failure: "declined", responsecode: "05", acquirerCode: "7" });
    },
  );

  it("applies the test-amount card: approved under $100, declined above", async () => {
    expect((await authorize("4504481742333", 9_999n)).status).toBe("approved");
    expect((await authorize("4504481742333", 10_001n)).status).toBe("declined");
  });

  it("refuses a card number failing Luhn (52) and an expired card (14)", async () => {
    expect(await authorize("4030000010001235")).toMatchObject({ status: "declined", responsecode: "14", acquirerCode: "52" });
    const expired = await connector().authorize({
      operationId: newId(),
      paymentId: newId(),
      amount: 100n,
      currency: "CAD",
      card: new CardDetails({ pan: "4030000010001234", expMonth: 1, expYear: 2020, securityCode: "123" }),
    });
    expect(expired).toMatchObject({ status: "declined", responsecode: "54", acquirerCode: "14" });
  });

  it("passes our own 3-D Secure results through (card.3d_secure_passthrough) and gets an approval", async () => {
    const threeDs = {
      eci: "05",
      authenticationValue: "AAABBEg0VhI0VniQEjRWAAAAAAA=",
      dsTransId: "63aeefe8-be1f-41fa-ad52-4b5e2e16671d",
      version: "2.2.0",
      transStatus: "Y",
      messageType: "ARes",
    } as const;
    expect(await authorize("4030000010001234", 2_213n, { threeDs })).toMatchObject({ status: "approved", eci: "05" });
    // The service's card that needs authentication (a sandbox-only convenience): 938 without it, approved with it.
    expect(await authorize("4000000000003006")).toMatchObject({ status: "declined", responsecode: "1A", acquirerCode: "938" });
    expect(await authorize("4000000000003006", 5_000n, { threeDs })).toMatchObject({ status: "approved" });
  });

  it("starts a card-on-file series with the stored card and continues it, on this account only", async () => {
    const first = await authorize("4030000010001234", 500n, { credentialOnFile: { initiator: "cardholder", storeCredential: true } });
    expect(first).toMatchObject({ status: "approved" });
    expect(first.credentialSeriesId).toMatch(/^\d+$/);
    const again = await authorize("4030000010001234", 700n, {
      credentialOnFile: {
        initiator: "cardholder",
        storeCredential: false,
        usesStoredCredential: true,
        previousCredentialSeriesId: first.credentialSeriesId,
      },
    });
    expect(again).toMatchObject({ status: "approved", credentialSeriesId: first.credentialSeriesId });
    // "The series ID is unique for each merchant account, and cannot be used ... from another account."
    const elsewhere = await authorize(
      "4030000010001234",
      700n,
      {
        currency: "USD",
        credentialOnFile: {
          initiator: "cardholder",
          storeCredential: false,
          usesStoredCredential: true,
          previousCredentialSeriesId: first.credentialSeriesId,
        },
      },
      connector({ index: 1 }),
    );
    expect(elsewhere).toMatchObject({ status: "failed", failure: "declined", acquirerCode: "1136" });
  });

  it("refuses without a call what the API cannot do: merchant-initiated authorizations, payouts, other currencies", async () => {
    const before = sandbox.ledger.transactions().length;
    const mit = await authorize("4030000010001234", 1_000n, {
      card: card("4030000010001234", undefined),
      credentialOnFile: { initiator: "merchant", paymentType: "unscheduled" },
    });
    expect(mit).toMatchObject({ status: "failed", failure: "declined", responsecode: "58", message: expect.stringMatching(/purchases/) });
    expect(await authorize("4030000010001234", 1_000n, { currency: "DKK" })).toMatchObject({ status: "failed", responsecode: "58" });
    const payout = await connector().payout({
      operationId: newId(),
      paymentId: newId(),
      amount: 100n,
      currency: "CAD",
      card: card("4030000010001234").withoutSecurityCode(),
    });
    expect(payout).toMatchObject({
      status: "failed",
      failure: "declined",
      responsecode: "58",
      message: expect.stringMatching(/no card payouts/),
    });
    expect(sandbox.ledger.transactions().length).toBe(before);
  });

  it("a reused order number is answered 788 and treated as unknown (look it up), never as a decline", async () => {
    const operationId = newId();
    const first = await authorize("4030000010001234", 1_000n, { operationId });
    expect(first.status).toBe("approved");
    const again = await authorize("4030000010001234", 1_000n, { operationId });
    expect(again).toMatchObject({ status: "failed", failure: "indeterminate", acquirerCode: "788" });
  });

  it("fails (does not decline) with a wrong passcode or merchant id", async () => {
    expect(await authorize("4030000010001234", 100n, {}, connector({ credentials: { paymentsPasscode: "wrong" } }))).toMatchObject({
      status: "failed",
      failure: "declined",
      responsecode: "03",
    });
    expect(await authorize("4030000010001234", 100n, {}, connector({ credentials: { merchantId: "399999999" } }))).toMatchObject({
      status: "failed",
      responsecode: "03",
    });
  });

  it("reports an unreachable gateway as retryable and a time-out as unknown", async () => {
    const closedPort = await new Promise<number>((resolve) => {
      const probe = createServer().listen(0, "127.0.0.1", () => {
        const { port } = probe.address() as AddressInfo;
        probe.close(() => resolve(port));
      });
    });
    expect(await authorize("4030000010001234", 100n, {}, connector({ baseUrl: `http://127.0.0.1:${closedPort}` }))).toMatchObject({
      status: "failed",
      failure: "retryable",
      responsecode: "91",
    });
    expect(await authorize("4000000000000119", 100n, {}, connector({ timeoutMs: 300 }))).toMatchObject({
      status: "failed",
      failure: "indeterminate",
      responsecode: "68",
    });
  });
});

describe("completions, returns and voids", () => {
  it("completes once, partially; more than the pre-authorization is refused (208); a repeated completion (203) is an unknown outcome to look up", async () => {
    const reference = await preAuthorization(10_000n);
    expect(await connector().capture(follow(reference, 10_001n))).toMatchObject({
      status: "failed",
      failure: "declined",
      acquirerCode: "208",
    });
    const capture = await connector().capture(follow(reference, 6_000n));
    expect(capture).toMatchObject({ status: "approved", responsecode: "00" });
    expect(capture.processorReference).not.toBe(reference);
    // Our capture rule never sends a second completion: a 203 answers a repeat of ours whose answer was lost.
    expect(await connector().capture(follow(reference, 1_000n))).toMatchObject({
      status: "failed",
      failure: "indeterminate",
      acquirerCode: "203",
    });
    expect(sandbox.ledger.byId(reference)!.capturedAmount).toBe(6_000);
  });

  it("returns part of a completion, then the rest, not beyond (194); a pre-authorization itself cannot be returned", async () => {
    const reference = await preAuthorization(10_000n);
    expect(await connector().refund(follow(reference, 100n))).toMatchObject({ status: "failed", failure: "declined" });
    const capture = await connector().capture(follow(reference, 8_000n));
    const refund = (amount: bigint) => connector().refund(follow(reference, amount, { captureReference: capture.processorReference }));
    expect(await refund(3_000n)).toMatchObject({ status: "approved" });
    expect(await refund(5_000n)).toMatchObject({ status: "approved" });
    expect(await refund(1n)).toMatchObject({ status: "failed", failure: "declined", acquirerCode: "194" });
    expect(sandbox.ledger.byId(reference)).toMatchObject({ capturedAmount: 8_000, refundedAmount: 8_000 });
  });

  it("voids a pre-authorization for its full amount only (193), once, and then it cannot be completed", async () => {
    const reference = await preAuthorization(10_000n);
    expect(await connector().void(follow(reference, 5_000n))).toMatchObject({ status: "failed", failure: "declined", acquirerCode: "193" });
    expect(await connector().void(follow(reference, 10_000n))).toMatchObject({ status: "approved" });
    expect(sandbox.ledger.byId(reference)!.voided).toBe(true);
    expect((await connector().void(follow(reference, 10_000n))).status).toBe("failed");
    expect((await connector().capture(follow(reference, 100n))).status).toBe("failed");
  });

  it("voids only on the day of the transaction, Eastern time (205)", async () => {
    const reference = await preAuthorization(4_000n);
    const today = clock;
    clock = new Date(today.getTime() + 26 * 3_600_000);
    try {
      const late = await connector().void(follow(reference, 4_000n));
      expect(late).toMatchObject({ status: "failed", failure: "declined", responsecode: "12", acquirerCode: "205" });
      expect(sandbox.ledger.byId(reference)!.voided).toBe(false);
    } finally {
      clock = today;
    }
  });

  it("refuses follow-ups on an unknown transaction or another account's (314, the field named)", async () => {
    const reference = await preAuthorization(1_000n);
    expect(await connector().capture(follow("99999999", 100n))).toMatchObject({
      status: "failed",
      failure: "declined",
      acquirerCode: "314",
    });
    const otherAccount = await connector({ index: 2 }).capture(follow(reference, 100n));
    expect(otherAccount).toMatchObject({
      status: "failed",
      failure: "declined",
      acquirerCode: "314",
      message: expect.stringContaining("adjId"),
    });
    expect(sandbox.ledger.byId(reference)!.capturedAmount).toBe(0);
  });

  it("declines the capture of the service's capture-declining card and voids it afterwards", async () => {
    const authorization = await authorize("4000000000000341", 10_000n);
    expect(authorization.status).toBe("approved");
    const reference = authorization.processorReference!;
    expect(await connector().capture(follow(reference, 10_000n))).toMatchObject({ status: "declined", responsecode: "05" });
    expect(await connector().void(follow(reference, 10_000n))).toMatchObject({ status: "approved" });
  });
});

describe("look-ups by our reference (POST /v1/reports, criteria OrderNumber)", () => {
  it("finds an authorization, approved or declined, by the operation id it was sent with; nothing for one never sent", async () => {
    const operationId = newId();
    const approved = await authorize("4030000010001234", 1_234n, { operationId });
    expect(await connector().lookupOperation({ kind: "authorize", operationId })).toMatchObject({
      status: "approved",
      processorReference: approved.processorReference,
      authorizationcode: "TEST",
    });
    const declinedId = newId();
    await authorize("4003050500040005", 1_234n, { operationId: declinedId });
    expect(await connector().lookupOperation({ kind: "authorize", operationId: declinedId })).toMatchObject({
      status: "declined",
      responsecode: "05",
    });
    expect(await connector().lookupOperation({ kind: "authorize", operationId: newId() })).toBeUndefined();
    // Another account's search does not see it.
    expect(await connector({ index: 2 }).lookupOperation({ kind: "authorize", operationId })).toBeUndefined();
  });

  it("finds a pre-authorization even after its completion took the same order number", async () => {
    const operationId = newId();
    const authorization = await authorize("4030000010001234", 2_000n, { operationId });
    await connector().capture(follow(authorization.processorReference!, 2_000n));
    expect(await connector().lookupOperation({ kind: "authorize", operationId })).toMatchObject({
      status: "approved",
      processorReference: authorization.processorReference,
    });
  });

  it("finds returns and voids by their own order numbers, a completion through its pre-authorization", async () => {
    const reference = await preAuthorization(3_000n);
    const capture = await connector().capture(follow(reference, 3_000n));
    const refund = follow(reference, 1_000n, { captureReference: capture.processorReference });
    const refunded = await connector().refund(refund);
    expect(await connector().lookupOperation({ kind: "refund", operationId: refund.operationId })).toMatchObject({
      status: "approved",
      processorReference: refunded.processorReference,
    });
    const other = await preAuthorization(2_500n);
    const voidRequest = follow(other, 2_500n);
    const voided = await connector().void(voidRequest);
    expect(await connector().lookupOperation({ kind: "void", operationId: voidRequest.operationId })).toMatchObject({
      status: "approved",
      processorReference: voided.processorReference,
    });
    // A completion keeps the pre-authorization's order number: found among the pre-auth's adjustments (GET, adjusted_by PAC).
    expect(BAMBORA_LOOKUPS.capture).toMatchObject({ lookup: true, notFoundIsProof: true });
    expect(await connector().lookupOperation({ kind: "capture", operationId: newId(), authorizationReference: reference })).toMatchObject({
      status: "approved",
      processorReference: capture.processorReference,
    });
    const uncaptured = await preAuthorization(1_500n);
    expect(await connector().lookupOperation({ kind: "capture", operationId: newId(), authorizationReference: uncaptured })).toBeUndefined();
    // Without the pre-authorization, or at another account, nothing can be said: the look-up throws (still unknown).
    await expect(connector().lookupOperation({ kind: "capture", operationId: newId() })).rejects.toThrow(/pre-authorization/);
    await expect(
      connector({ index: 2 }).lookupOperation({ kind: "capture", operationId: newId(), authorizationReference: reference }),
    ).rejects.toThrow(/HTTP 400/);
  });

  it("finds an authorization Bambora processed after the caller gave up (the 45-second test card)", async () => {
    const operationId = newId();
    const timedOut = await authorize("4485349439401891", 1_000n, { operationId }, connector({ timeoutMs: 300 }));
    expect(timedOut).toMatchObject({ status: "failed", failure: "indeterminate", responsecode: "68" });
    expect(await connector().lookupOperation({ kind: "authorize", operationId })).toMatchObject({ status: "approved" });
  });

  it("a look-up under a wrong Reporting API passcode throws (the outcome stays unknown)", async () => {
    await expect(
      connector({ credentials: { reportingPasscode: "wrong" } }).lookupOperation({ kind: "authorize", operationId: newId() }),
    ).rejects.toThrow(/HTTP 401/);
  });
});

describe("test connection", () => {
  it("checks both passcodes without moving anything", async () => {
    const before = sandbox.ledger.transactions().length;
    expect(await connector().checkConnection()).toMatchObject({
      ok: true,
      message: expect.stringMatching(/Reporting API passcode is accepted/),
    });
    expect(await connector({ credentials: { paymentsPasscode: "wrong" } }).checkConnection()).toMatchObject({ ok: false });
    expect(await connector({ credentials: { reportingPasscode: "wrong" } }).checkConnection()).toMatchObject({
      ok: false,
      message: expect.stringMatching(/Reporting API passcode/),
    });
    expect(sandbox.ledger.transactions().length).toBe(before);
  });
});

describe("the sandbox is strict", () => {
  const passcode = (index = 0) =>
    `Passcode ${Buffer.from(`${credentials(index).merchantId}:${credentials(index).paymentsPasscode}`).toString("base64")}`;
  const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
    fetch(`${server.url}${path}`, {
      method: "POST",
      headers: { authorization: passcode(), "content-type": "application/json", ...headers },
      body: JSON.stringify(body),
    });
  const cardBody = {
    name: "Jo",
    number: "4030000010001234",
    expiry_month: "12",
    expiry_year: String(nextYear % 100),
    cvd: "123",
    complete: false,
  };

  it.each([
    ["POST", "/authorize"],
    ["POST", "/payouts"],
    ["GET", "/transactions?orderid=x"],
    ["GET", "/cardupdates"],
    ["POST", "/transactions/1/capture"],
    ["POST", "/v1/payments/1/payouts"],
    ["POST", "/sandbox/card-updates"],
  ])("answers 404 to %s %s (not part of the API)", async (method, path) => {
    const response = await fetch(`${server.url}${path}`, {
      method,
      headers: { authorization: passcode(), "content-type": "application/json" },
      body: method === "POST" ? "{}" : undefined,
    });
    expect(response.status).toBe(404);
  });

  it("refuses fields the API does not have, a missing name, three decimals, another payment method", async () => {
    const unknownField = await post("/v1/payments", { amount: 1, payment_method: "card", card: cardBody, currency: "CAD" });
    expect(unknownField.status).toBe(400);
    expect(await unknownField.json()).toMatchObject({
      code: 314,
      category: 3,
      details: [{ field: "body", message: expect.stringMatching(/currency/) }],
    });
    const { name: _name, ...nameless } = cardBody;
    expect((await post("/v1/payments", { amount: 1, payment_method: "card", card: nameless })).status).toBe(400);
    expect((await post("/v1/payments", { amount: 1.005, payment_method: "card", card: cardBody })).status).toBe(400);
    const token = await post("/v1/payments", { amount: 1, payment_method: "token" });
    expect(token.status).toBe(402);
    expect(await token.json()).toMatchObject({ code: 681 });
    expect(
      (await post("/v1/payments", { amount: 1, payment_method: "card", card: cardBody }, { "content-type": "text/plain" })).status,
    ).toBe(415);
    expect((await fetch(`${server.url}/v1/payments`, { method: "GET", headers: { authorization: passcode() } })).status).toBe(405);
  });

  it("answers 401 without the Payments API passcode, and to the reporting passcode on payments", async () => {
    const reporting = `Passcode ${Buffer.from(`${credentials().merchantId}:${credentials().reportingPasscode}`).toString("base64")}`;
    expect((await post("/v1/payments", { amount: 1, payment_method: "card", card: cardBody }, { authorization: reporting })).status).toBe(
      401,
    );
    const basic = `Basic ${Buffer.from(`${credentials().merchantId}:${credentials().paymentsPasscode}`).toString("base64")}`;
    expect((await post("/v1/payments", { amount: 1, payment_method: "card", card: cardBody }, { authorization: basic })).status).toBe(401);
  });

  it("answers a merchant-initiated pre-authorization with 1136 (purchase only)", async () => {
    const first = await post("/v1/payments", {
      amount: 1,
      payment_method: "card",
      card: cardBody,
      card_on_file: { type: "first_recurring" },
    });
    const seriesId = ((await first.json()) as { card_on_file: { series_id: number } }).card_on_file.series_id;
    const subsequent = await post("/v1/payments", {
      amount: 1,
      payment_method: "card",
      card: { ...cardBody, cvd: undefined },
      card_on_file: { type: "subsequent_recurring", series_id: seriesId },
    });
    expect(subsequent.status).toBe(402);
    expect(await subsequent.json()).toMatchObject({ code: 1136, category: 2 });
  });
});
