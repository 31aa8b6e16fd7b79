// The Finaro connector against the strict Finaro sandbox (no extensions: only what the public clients
// and their recorded answers show, docs/acquirers/references/finaro.md), over real HTTP, for every
// operation we use. The connectors of issue 24's main failed here: no g4 on capture, refund and void
// (recorded "-9 Parameter [g4] cannot be empty."), no c3/d1 on MITs and payouts, b2=3 for Amex,
// "first recurring" on every stored-card CIT.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CardDetails } from "@/lib/cards/card-details";
import { newId } from "@/lib/ids";
import type { ProcessorConnector, ProcessorResult, ReferencedOperation, ThreeDsResult } from "@/lib/acquirers/contract";
import { startSandboxes, type RunningSandboxes } from "@/lib/sandboxes/acquirers/start-sandboxes";
import { connectorAt, sandboxCredentials } from "@/tests/helpers/acquirer-accounts";

let sandboxes: RunningSandboxes;
beforeAll(async () => {
  sandboxes = await startSandboxes({ processors: ["finaro"], threeDs: false, register: false, extensions: false });
});
afterAll(async () => {
  await sandboxes.close();
});

const connector = (index = 0): ProcessorConnector =>
  connectorAt(sandboxes.urls.finaro!, sandboxCredentials("finaro", index), 5_000, "test-account", { extensions: false });
const ledger = () => sandboxes.ledgers.finaro!;
const year = new Date().getUTCFullYear() + 2;
/** [AM-CR-R] L9: approves (CVV 123). */
const APPROVES = "4018810000100036";
/** [AM-CR-R] L10: approves with external 3-D Secure data. */
const MASTERCARD = "5223450000000007";
const card = (pan = APPROVES, securityCode = pan === MASTERCARD ? "090" : "123") =>
  new CardDetails({ pan, expMonth: 12, expYear: year, securityCode });
const storedCard = (pan = APPROVES) => new CardDetails({ pan, expMonth: 12, expYear: year });

function authorize(extra: Partial<Parameters<ProcessorConnector["authorize"]>[0]> = {}, using = connector()) {
  return using.authorize({ operationId: newId(), paymentId: newId(), amount: 10_000n, currency: "EUR", card: card(), ...extra });
}

/** An approved authorization and what later operations name of it. */
async function approved(amount = 10_000n): Promise<{ operationId: string; result: ProcessorResult }> {
  const operationId = newId();
  const result = await authorize({ operationId, amount });
  expect(result).toMatchObject({ status: "approved", responsecode: "00" });
  return { operationId, result };
}

const follow = (authorization: { operationId: string; result: ProcessorResult }) => ({
  authorizationReference: authorization.result.processorReference!,
  authorizationCode: authorization.result.authorizationcode,
  authorizationOperationId: authorization.operationId,
  currency: "EUR",
});

async function capture(authorization: { operationId: string; result: ProcessorResult }, amount: bigint): Promise<ReferencedOperation> {
  const operationId = newId();
  const result = await connector().capture({ operationId, amount, ...follow(authorization) });
  expect(result, `capture ${amount}`).toMatchObject({ status: "approved" });
  return { operationId, processorReference: result.processorReference!, authorizationCode: result.authorizationcode };
}

const threeDs: ThreeDsResult = {
  eci: "02",
  authenticationValue: "jJ81HADVRtXfCBATEp01CJUAAAA=",
  dsTransId: "97267598-fae6-48f2-8083-c23433990fbc",
  version: "2.2.0",
  transStatus: "Y",
  messageType: "ARes",
};

describe("finaro connector against the strict sandbox", () => {
  it("authorizes the public test card with c1, c3 and d1 (fallbacks where none is known), and gets z50 as the network id", async () => {
    const result = await authorize();
    expect(result).toMatchObject({ status: "approved", responsecode: "00" });
    expect(result.authorizationcode).toMatch(/^\d{6}$/);
    expect(result.scheme?.schemeTransactionId).toMatch(/^\d{15}$/);
    expect(result.par).toBeUndefined();
  });

  it("declines the public decline card with z6 57", async () => {
    expect(await authorize({ card: card("4176661000001111", "681") })).toMatchObject({ status: "declined", responsecode: "57" });
  });

  it("authorizes with external 3-D Secure data (i8, 3ds_version, 3ds_dstrxid)", async () => {
    expect(await authorize({ card: card(MASTERCARD), threeDs })).toMatchObject({ status: "approved", eci: "02" });
  });

  it("an unknown card is refused by the gateway (-9, no K) and read as a refusal, not an unknown outcome", async () => {
    const result = await authorize({ card: card("4111111111111111") });
    expect(result).toMatchObject({ status: "failed", failure: "declined", message: "Card cannot be identified" });
  });

  it("captures with g2/g3/g4, partially and several times, and not beyond the authorization", async () => {
    const authorization = await approved(10_000n);
    await capture(authorization, 3_000n);
    await capture(authorization, 5_000n);
    const beyond = await connector().capture({ operationId: newId(), amount: 2_001n, ...follow(authorization) });
    expect(beyond).toMatchObject({ status: "failed", failure: "declined" });
    expect(ledger().byId(authorization.result.processorReference!)!.capturedAmount).toBe(8_000);
  });

  it("the gateway refuses a capture without g4 with the recorded answer (what main sent)", async () => {
    const authorization = await approved();
    const { authorizationOperationId: _g4, ...withoutG4 } = follow(authorization);
    const result = await connector().capture({ operationId: newId(), amount: 100n, ...withoutG4 });
    // Our connector does not send it: it cannot name the authorization without its a1.
    expect(result).toMatchObject({ status: "failed", failure: "retryable" });
    expect(result.message).toMatch(/g4/);
  });

  it("refunds name one capture each: several partial refunds across several captures, each within its capture", async () => {
    const authorization = await approved(10_000n);
    const first = await capture(authorization, 3_000n);
    const second = await capture(authorization, 5_000n);
    const refund = (amount: bigint, named?: ReferencedOperation) =>
      connector().refund({ operationId: newId(), amount, capture: named, ...follow(authorization) });
    expect(await refund(4_000n, second)).toMatchObject({ status: "approved" });
    expect(await refund(3_000n, first)).toMatchObject({ status: "approved" });
    // The second capture has 1 000 left: 1 001 is beyond it.
    expect(await refund(1_001n, second)).toMatchObject({ status: "failed", failure: "declined" });
    expect(await refund(1_000n, second)).toMatchObject({ status: "approved" });
    expect(ledger().byId(authorization.result.processorReference!)).toMatchObject({ capturedAmount: 8_000, refundedAmount: 8_000 });
    // No capture named (none holds the amount): not sent.
    expect(await refund(100n)).toMatchObject({ status: "failed", failure: "retryable", responsecode: "13" });
  });

  it("voids an authorization with g2/g3/g4 and no amount", async () => {
    const authorization = await approved();
    expect(await connector().void({ operationId: newId(), amount: 10_000n, ...follow(authorization) })).toMatchObject({
      status: "approved",
    });
    expect(ledger().byId(authorization.result.processorReference!)!.voided).toBe(true);
  });

  it("pays out (O=35) with c1, c3, d1 and the recipient's names", async () => {
    const result = await connector().payout({
      operationId: newId(),
      paymentId: newId(),
      amount: 2_500n,
      currency: "EUR",
      card: storedCard(),
      customer: { email: "jane.doe@example.org", firstName: "Jane", surname: "Doe" },
    });
    expect(result).toMatchObject({ status: "approved" });
    expect(
      await connector().payout({ operationId: newId(), paymentId: newId(), amount: 2_500n, currency: "EUR", card: storedCard() }),
    ).toMatchObject({
      status: "approved",
    });
  });

  it("a card-storing CIT is a9=9, and the MITs after it are a9=2 (scheduled) and 8 (unscheduled) with g6 = its z50, without CVV", async () => {
    const first = await authorize({ credentialOnFile: { initiator: "cardholder", storeCredential: true } });
    expect(first.status).toBe("approved");
    for (const paymentType of ["scheduled", "unscheduled"] as const) {
      const mit = await authorize({
        card: storedCard(),
        credentialOnFile: { initiator: "merchant", paymentType, previousSchemeTransactionId: first.scheme!.schemeTransactionId },
        customer: { email: "jane.doe@example.org", firstName: "Jane", surname: "Doe" },
        customerIp: "192.0.2.10",
      });
      expect(mit, paymentType).toMatchObject({ status: "approved" });
    }
  });

  it("refuses an incremental MIT before sending (no public code), and a g6 that is no network id is refused by the gateway", async () => {
    const incremental = await authorize({ card: storedCard(), credentialOnFile: { initiator: "merchant", paymentType: "incremental" } });
    expect(incremental).toMatchObject({ status: "failed", failure: "retryable", responsecode: "58" });
    const z13 = await authorize({
      card: storedCard(),
      credentialOnFile: { initiator: "merchant", paymentType: "scheduled", previousSchemeTransactionId: "606944188282" },
    });
    expect(z13).toMatchObject({
      status: "failed",
      failure: "declined",
      message: "2. At least one of input parameters is malformed.: Parameter g6 is invalid",
    });
  });

  it("sends no b2 for a brand the references do not list (American Express)", async () => {
    const amex = new CardDetails({ pan: "378282246310005", expMonth: 12, expYear: year, securityCode: "1234" });
    // Not a test card: the gateway cannot identify it, but the request is well formed (no b2=3 refusal).
    expect(await authorize({ card: amex })).toMatchObject({ status: "failed", message: "Card cannot be identified" });
  });

  it("does not look up with O=101 as if its not-found were proof: the strict gateway refuses the retrieval and the outcome stays unknown", async () => {
    await expect(connector().lookupOperation({ kind: "authorize", operationId: newId() })).rejects.toThrow(/refused/);
  });

  it("each MID refers to its own transactions only", async () => {
    const authorization = await approved();
    const other = connector(1);
    const result = await other.capture({ operationId: newId(), amount: 100n, ...follow(authorization) });
    expect(result).toMatchObject({ status: "failed", failure: "declined" });
    expect(ledger().byId(authorization.result.processorReference!)!.capturedAmount).toBe(0);
  });
});
