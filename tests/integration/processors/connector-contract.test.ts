// Contract tests: each connector against its own sandbox over real HTTP, with the sandboxes'
// extensions on (the scenario cards, look-ups, card-update feeds, replayed repeats) as our suites and
// local mode run them. What the references alone allow is in clearhaus-reference.test.ts and
// finaro-reference.test.ts (strict sandboxes).
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CardDetails } from "@/lib/cards/card-details";
import { startSandboxes, type RunningSandboxes } from "@/lib/sandboxes/acquirers/start-sandboxes";
import { connectorAt, sandboxCredentials } from "@/tests/helpers/acquirer-accounts";
import type { ProcessorConnector, ProcessorResult, ReferencedOperation } from "@/lib/acquirers/contract";
import type { AcquirerName } from "@/lib/acquirers/names";
import { newId } from "@/lib/ids";

const TIMEOUT_MS = 5_000;
let sandboxes: RunningSandboxes;

beforeAll(async () => {
  sandboxes = await startSandboxes({ register: false, threeDs: false, hangMs: 30_000, extensions: true });
});
afterAll(async () => {
  await sandboxes.close();
});

/** The sandbox's first test account; `secret` replaces its secret (signature key, API key). */
function connectorFor(name: AcquirerName, overrides: { secret?: string; timeoutMs?: number } = {}): ProcessorConnector {
  const account = sandboxCredentials(name);
  if (overrides.secret) {
    if (account.processor === "finaro") account.credentials.signatureKey = overrides.secret;
    if (account.processor === "clearhaus") account.credentials.apiKey = overrides.secret;
  }
  return connectorAt(sandboxes.urls[name]!, account, overrides.timeoutMs ?? TIMEOUT_MS);
}

const nextYear = new Date().getUTCFullYear() + 2;
const fullAuthentication = {
  eci: "05",
  authenticationValue: "AAABBBCCCDDDEEEFFF012345678=",
  dsTransId: "f2b1c3a4-0000-4000-8000-000000000001",
  version: "2.2.0",
  transStatus: "Y",
  messageType: "ARes",
} as const;
const card = (pan: string, securityCode = pan.startsWith("3") ? "1234" : "123") =>
  new CardDetails({ pan, expMonth: 12, expYear: nextYear, securityCode });

function authorize(
  connector: ProcessorConnector,
  pan: string,
  amount = 10_000n,
  extra: Partial<Parameters<ProcessorConnector["authorize"]>[0]> = {},
) {
  return connector.authorize({ operationId: newId(), paymentId: newId(), amount, currency: "DKK", card: card(pan), ...extra });
}

/** An approved authorization, as later operations name it (Finaro also by its a1 and approval code). */
async function approvedAuthorization(connector: ProcessorConnector, amount = 10_000n, pan = "4111111111111111") {
  const operationId = newId();
  const result = await authorize(connector, pan, amount, { operationId });
  expect(result.status).toBe("approved");
  return {
    authorizationReference: result.processorReference!,
    authorizationCode: result.authorizationcode,
    authorizationOperationId: operationId,
    currency: "DKK",
  };
}

/** The capture as a refund names it. */
const named = (operationId: string, result: ProcessorResult): ReferencedOperation => ({
  operationId,
  processorReference: result.processorReference!,
  authorizationCode: result.authorizationcode,
});

// Bambora North America speaks another API with its own rules (CAD/USD, one completion, no payouts,
// its own test cards): tests/integration/processors/bambora-connector.test.ts.
describe.each(["finaro", "clearhaus"] as const)("%s connector against its sandbox", (name) => {
  const connector = () => connectorFor(name);

  it("approves the approval cards with an authorization code, a reference and a PAR", async () => {
    // Clearhaus takes Visa and Mastercard only: American Express is not sent there.
    const cards =
      name === "clearhaus" ? ["4111111111111111", "2221000000000009"] : ["4111111111111111", "2221000000000009", "378282246310005"];
    for (const pan of cards) {
      const result = await authorize(connector(), pan);
      expect(result, pan).toMatchObject({ status: "approved", responsecode: "00" });
      expect(result.authorizationcode).toMatch(/^\d{6}$/);
      expect(result.processorReference).toBeTruthy();
      expect(result.par).toMatch(/^[A-Z0-9]{29}$/);
    }
  });

  it("returns the same PAR for the same card on every call", async () => {
    const first = await authorize(connector(), "2221000000000009");
    const second = await authorize(connector(), "2221000000000009");
    expect(first.par).toBe(second.par);
  });

  it.each([
    ["4000000000000002", "05"],
    ["4000000000009995", "51"],
    ["4000000000000069", "54"],
  ])("declines %s with response code %s", async (pan, code) => {
    const result = await authorize(connector(), pan);
    expect(result).toMatchObject({ status: "declined", failure: "declined", responsecode: code });
    expect(result.authorizationcode).toBeUndefined();
  });

  it("declines an expired card with 54 and a card failing Luhn with 14", async () => {
    const expired = await connector().authorize({
      operationId: newId(),
      paymentId: newId(),
      amount: 100n,
      currency: "DKK",
      card: new CardDetails({ pan: "4111111111111111", expMonth: 1, expYear: 2020, securityCode: "123" }),
    });
    expect(expired).toMatchObject({ status: "declined", responsecode: "54" });
    const invalid = await authorize(connector(), "4111111111111112");
    // Clearhaus' test gateway approves numbers that fail Luhn ("use PANs that are not Luhn-compliant").
    if (name === "clearhaus") expect(invalid).toMatchObject({ status: "approved" });
    else expect(invalid).toMatchObject({ status: "declined", responsecode: "14" });
  });

  it("applies the per-processor fallback cards", async () => {
    const declinedByFinaroOnly = await authorize(connector(), "4000000000001000");
    const declinedByTwo = await authorize(connector(), "4000000000002008");
    expect(declinedByFinaroOnly.status).toBe(name === "finaro" ? "declined" : "approved");
    expect(declinedByTwo).toMatchObject({ status: "declined", responsecode: "05" });
  });

  it("declines the authentication-required card with 1A without 3-D Secure and approves it with a full authentication", async () => {
    const without = await authorize(connector(), "4000000000003006");
    expect(without).toMatchObject({ status: "declined", responsecode: "1A" });
    const authenticated = await authorize(connector(), "4000000000003006", 5_000n, {
      threeDs: fullAuthentication,
    });
    expect(authenticated).toMatchObject({ status: "approved", responsecode: "00", eci: "05" });
    const attempted = await authorize(connector(), "4000000000003006", 5_000n, {
      threeDs: { ...fullAuthentication, eci: "06", transStatus: "A" },
    });
    expect(attempted.status).toBe("declined");
  });

  it("approves a merchant-initiated payment of the authentication-required card (SCA does not apply)", async () => {
    // The series starts with the cardholder, authenticated, storing the card.
    const first = await authorize(connector(), "4000000000003006", 5_000n, {
      threeDs: fullAuthentication,
      credentialOnFile: { initiator: "cardholder", storeCredential: true },
    });
    expect(first.status).toBe("approved");
    const result = await connector().authorize({
      operationId: newId(),
      paymentId: newId(),
      amount: 700n,
      currency: "DKK",
      card: new CardDetails({ pan: "4000000000003006", expMonth: 12, expYear: nextYear }),
      credentialOnFile: {
        initiator: "merchant",
        paymentType: "unscheduled",
        previousSchemeTransactionId: first.scheme?.schemeTransactionId ?? "123456789012345",
        previousProcessorReference: first.processorReference,
      },
    });
    expect(result.status).toBe("approved");
  });

  it("reports a time-out as a failed, indeterminate result (never a decline) within the configured bound", async () => {
    const started = Date.now();
    const result = await authorize(connectorFor(name, { timeoutMs: 400 }), "4000000000000119");
    const elapsed = Date.now() - started;
    expect(result).toMatchObject({ status: "failed", failure: "indeterminate", responsecode: "68" });
    expect(elapsed).toBeGreaterThanOrEqual(390);
    expect(elapsed).toBeLessThan(3_000);
  });

  it("captures partially and repeatedly up to the authorized amount, not beyond", async () => {
    const authorization = await approvedAuthorization(connector(), 10_000n);
    const first = await connector().capture({ operationId: newId(), ...authorization, amount: 4_000n });
    expect(first).toMatchObject({ status: "approved", responsecode: "00" });
    const second = await connector().capture({ operationId: newId(), ...authorization, amount: 6_000n });
    expect(second.status).toBe("approved");
    const beyond = await connector().capture({ operationId: newId(), ...authorization, amount: 1n });
    expect(beyond.status).toBe("failed");
    expect(beyond.failure).toBe("declined");
  });

  it("treats a repeated request (same operation id) as the same request: one capture, the same answer", async () => {
    const authorization = await approvedAuthorization(connector(), 10_000n);
    const operationId = newId();
    const first = await connector().capture({ operationId, ...authorization, amount: 4_000n });
    const repeated = await connector().capture({ operationId, ...authorization, amount: 4_000n });
    expect(first.status).toBe("approved");
    expect(repeated).toEqual(first);
    expect(sandboxes.ledgers[name]!.byId(authorization.authorizationReference)!.capturedAmount).toBe(4_000);
  });

  it("refunds partially and repeatedly up to the captured amount, not beyond", async () => {
    const authorization = await approvedAuthorization(connector(), 10_000n);
    const beforeCapture = await connector().refund({ operationId: newId(), ...authorization, amount: 100n });
    expect(beforeCapture.status).toBe("failed");
    const captureId = newId();
    const capture = await connector().capture({ operationId: captureId, ...authorization, amount: 8_000n });
    expect(capture.status).toBe("approved");
    const refund = (amount: bigint) =>
      connector().refund({
        operationId: newId(),
        ...authorization,
        captureReference: capture.processorReference,
        capture: named(captureId, capture),
        amount,
      });
    expect((await refund(3_000n)).status).toBe("approved");
    expect((await refund(5_000n)).status).toBe("approved");
    const beyond = await refund(1n);
    expect(beyond).toMatchObject({ status: "failed", failure: "declined" });
  });

  it("voids an uncaptured authorization once; a captured one cannot be voided", async () => {
    const authorization = await approvedAuthorization(connector());
    expect((await connector().void({ operationId: newId(), ...authorization, amount: 10_000n })).status).toBe("approved");
    expect((await connector().void({ operationId: newId(), ...authorization, amount: 10_000n })).status).toBe("failed");
    const afterVoid = await connector().capture({ operationId: newId(), ...authorization, amount: 100n });
    expect(afterVoid.status).toBe("failed");

    const captured = await approvedAuthorization(connector());
    await connector().capture({ operationId: newId(), ...captured, amount: 100n });
    expect((await connector().void({ operationId: newId(), ...captured, amount: 10_000n })).status).toBe("failed");
  });

  it("authorizes the capture-declining card 4000000000000341, declines its capture, and approves a void afterwards", async () => {
    const authorization = await approvedAuthorization(connector(), 10_000n, "4000000000000341");
    const reference = authorization.authorizationReference;
    const capture = () => connector().capture({ operationId: newId(), ...authorization, amount: 10_000n });
    // Clearhaus' captures cannot answer an issuer's code: its decline is a rule violation (40200).
    const declinedCapture =
      name === "clearhaus"
        ? { status: "failed", failure: "declined", acquirerCode: "40200" }
        : { status: "declined", failure: "declined", responsecode: "05" };
    const declined = await capture();
    expect(declined).toMatchObject(declinedCapture);
    expect(declined.authorizationcode).toBeUndefined();
    // A partial capture is declined the same way; nothing was captured, so there is nothing to refund.
    expect(await connector().capture({ operationId: newId(), ...authorization, amount: 1_000n })).toMatchObject(declinedCapture);
    expect(sandboxes.ledgers[name]!.byId(reference)!.capturedAmount).toBe(0);
    expect((await connector().refund({ operationId: newId(), ...authorization, amount: 100n })).status).toBe("failed");
    const voided = await connector().void({ operationId: newId(), ...authorization, amount: 10_000n });
    expect(voided).toMatchObject({ status: "approved", responsecode: "00" });
    expect(sandboxes.ledgers[name]!.byId(reference)!.voided).toBe(true);
    // After the void a capture fails on the voided authorization (not the card's decline).
    expect(await capture()).toMatchObject({ status: "failed", failure: "declined" });
  });

  it("cannot capture a declined authorization or an unknown one", async () => {
    const declined = await authorize(connector(), "4000000000000002");
    const onDeclined = await connector().capture({
      operationId: newId(),
      authorizationReference: declined.processorReference ?? "unknown",
      authorizationCode: "123456",
      authorizationOperationId: newId(),
      amount: 100n,
      currency: "DKK",
    });
    expect(onDeclined.status).toBe("failed");
    const unknown = await connector().capture({
      operationId: newId(),
      authorizationReference: "00000000-0000-4000-8000-000000000000",
      authorizationCode: "123456",
      authorizationOperationId: newId(),
      amount: 100n,
      currency: "DKK",
    });
    expect(unknown.status).toBe("failed");
  });

  it("pays out to a card, and declines a payout to a declining card", async () => {
    const payout = (pan: string) =>
      connector().payout({
        operationId: newId(),
        paymentId: newId(),
        amount: 2_500n,
        currency: "DKK",
        card: card(pan).withoutSecurityCode(),
      });
    const approved = await payout("4111111111111111");
    expect(approved).toMatchObject({ status: "approved", responsecode: "00" });
    // Finaro's credit answer carries no z4 ([AM-CR-U] credit answer).
    if (name !== "finaro") expect(approved.authorizationcode).toMatch(/^\d{6}$/);
    expect(await payout("4000000000009995")).toMatchObject({ status: "declined", responsecode: "51" });
  });

  it("fails (does not decline) with wrong credentials", async () => {
    const result = await authorize(connectorFor(name, { secret: "wrong-secret" }), "4111111111111111");
    expect(result.status).toBe("failed");
    expect(result.status).not.toBe("approved");
  });

  it("lists card updates reported to the acquirer's account updater", async () => {
    const since = new Date(Date.now() - 1_000);
    const par = "V001ABCDEFGHIJKLMNOPQRSTUVWXY";
    const response = await fetch(`${sandboxes.urls[name]}/sandbox/card-updates`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ par, kind: "expiry", newExpMonth: 3, newExpYear: nextYear + 3 }),
    });
    expect(response.status).toBe(201);
    const updates = await connector().cardUpdates({ since });
    expect(updates).toEqual([expect.objectContaining({ par, kind: "expiry", newExpMonth: 3, newExpYear: nextYear + 3 })]);
    expect(await connector().cardUpdates({ since: new Date(Date.now() + 60_000) })).toEqual([]);
  });

  it("reports an unreachable acquirer as retryable (nothing happened)", async () => {
    const closedPort = await new Promise<number>((resolve) => {
      const probe = createServer().listen(0, "127.0.0.1", () => {
        const { port } = probe.address() as AddressInfo;
        probe.close(() => resolve(port));
      });
    });
    const closed = `http://127.0.0.1:${closedPort}`;
    const unreachable = connectorAt(closed, sandboxCredentials(name), 1_000);
    expect(await authorize(unreachable, "4111111111111111")).toMatchObject({ status: "failed", failure: "retryable", responsecode: "91" });
  });
});
