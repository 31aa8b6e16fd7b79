// The Clearhaus connector against the strict Clearhaus sandbox (no extensions: only what the Gateway
// API docs describe, docs/acquirers/references/clearhaus.md), over real HTTP, for every operation we
// use. Each refusal below is one the real gateway gives and one the connectors of issue 24's main
// ran into: incomplete raw 3-D Secure data, no series, the invented look-up, a 400 read as unknown.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CardDetails } from "@/lib/cards/card-details";
import { newId } from "@/lib/ids";
import type { ProcessorConnector, ThreeDsResult } from "@/lib/acquirers/contract";
import { startSandboxes, type RunningSandboxes } from "@/lib/sandboxes/acquirers/start-sandboxes";
import { CLEARHAUS_SANDBOX_API_KEY } from "@/lib/sandboxes/acquirers/clearhaus";
import { clearhausSigningCredentials, connectorAt, sandboxCredentials } from "@/tests/helpers/acquirer-accounts";

let sandboxes: RunningSandboxes;
beforeAll(async () => {
  sandboxes = await startSandboxes({ processors: ["clearhaus"], threeDs: false, register: false, extensions: false });
});
afterAll(async () => {
  await sandboxes.close();
});

const connector = (account = sandboxCredentials("clearhaus")): ProcessorConnector =>
  connectorAt(sandboxes.urls.clearhaus!, account, 5_000, "test-account", { extensions: false });
const ledger = () => sandboxes.ledgers.clearhaus!;
const year = new Date().getUTCFullYear() + 2;
const VISA = "4111111111111111";
const MASTERCARD = "2221000000000009";
const card = (pan = VISA) => new CardDetails({ pan, expMonth: 6, expYear: year, securityCode: "987" });
/** A stored card: never a security code. */
const storedCard = (pan = VISA) => new CardDetails({ pan, expMonth: 6, expYear: year });

const frictionless: ThreeDsResult = {
  eci: "05",
  authenticationValue: "mK225wGt2bLnnLB0UlRky0oHLnU=",
  dsTransId: "1cf815e5-cc85-436f-8e13-9f5e5aea731f",
  threeDsServerTransId: "8a880dc0-d2d2-4067-bcb1-b08d1690b26e",
  version: "2.2.0",
  transStatus: "Y",
  messageType: "ARes",
};

function authorize(extra: Partial<Parameters<ProcessorConnector["authorize"]>[0]> = {}, using = connector()) {
  return using.authorize({ operationId: newId(), paymentId: newId(), amount: 2_050n, currency: "EUR", card: card(), ...extra });
}

async function approvedAuthorization(amount = 10_000n) {
  const result = await authorize({ amount });
  expect(result).toMatchObject({ status: "approved", responsecode: "00" });
  return result.processorReference!;
}

describe("clearhaus connector against the strict sandbox", () => {
  it("authorizes the documented test PANs without 3-D Secure (no approval code or PAR: Clearhaus has none)", async () => {
    for (const pan of [VISA, MASTERCARD]) {
      const result = await authorize({ card: card(pan) });
      expect(result, pan).toMatchObject({ status: "approved", responsecode: "00", acquirerCode: "20000" });
      expect(result.authorizationcode).toBeUndefined();
      expect(result.par).toBeUndefined();
    }
  });

  it("sends 3-D Secure as complete raw data (trans_status, message_version, message_type, ds_trans_id), for Visa and Mastercard", async () => {
    expect(await authorize({ threeDs: frictionless })).toMatchObject({ status: "approved", eci: "05" });
    const afterChallenge = await authorize({ card: card(MASTERCARD), threeDs: { ...frictionless, eci: "02", messageType: "RReq" } });
    expect(afterChallenge).toMatchObject({ status: "approved", eci: "02" });
  });

  it("does not send a Mastercard 3-D Secure result without its DS transaction id: refused before sending, nothing at Clearhaus", async () => {
    const before = ledger().transactions().length;
    const result = await authorize({ card: card(MASTERCARD), threeDs: { ...frictionless, dsTransId: undefined } });
    expect(result).toMatchObject({ status: "failed", failure: "retryable", responsecode: "30" });
    expect(result.message).toMatch(/not sent to clearhaus: .*ds_trans_id/);
    expect(ledger().transactions()).toHaveLength(before);
  });

  it("applies the test rules: amount as status for 420000…0000, Luhn-valid numbers declined with 40110", async () => {
    expect(await authorize({ card: card("4200000000000000"), amount: 40_413n })).toMatchObject({
      status: "declined",
      responsecode: "51",
      acquirerCode: "40413",
    });
    expect(await authorize({ card: card("4200000000000000"), amount: 100n })).toMatchObject({ status: "declined", acquirerCode: "40110" });
    expect(await authorize({ card: card("4018810000100036") })).toMatchObject({ status: "declined", acquirerCode: "40110" });
  });

  it("voids a 50000 authorization (it may hold funds) before the payment goes anywhere else", async () => {
    const result = await authorize({ card: card("4200000000000000"), amount: 50_000n });
    expect(result).toMatchObject({ status: "failed", failure: "retryable", acquirerCode: "50000" });
    expect(result.message).toMatch(/voided/);
    expect(ledger().byId(result.processorReference!)).toMatchObject({ holds: true, voided: true });
  });

  it("captures partially and several times, refunds partially and several times, voids", async () => {
    const reference = await approvedAuthorization(10_000n);
    const capture = (amount: bigint) =>
      connector().capture({ operationId: newId(), authorizationReference: reference, amount, currency: "EUR" });
    expect(await capture(3_000n)).toMatchObject({ status: "approved" });
    expect(await capture(5_000n)).toMatchObject({ status: "approved" });
    expect(await capture(2_001n)).toMatchObject({ status: "failed", failure: "declined", acquirerCode: "40200" });
    const refund = (amount: bigint) =>
      connector().refund({ operationId: newId(), authorizationReference: reference, amount, currency: "EUR" });
    expect(await refund(4_000n)).toMatchObject({ status: "approved" });
    expect(await refund(4_000n)).toMatchObject({ status: "approved" });
    expect(await refund(1n)).toMatchObject({ status: "failed", failure: "declined" });
    expect(ledger().byId(reference)).toMatchObject({ capturedAmount: 8_000, refundedAmount: 8_000 });

    const other = await approvedAuthorization();
    expect(await connector().void({ operationId: newId(), authorizationReference: other, amount: 10_000n, currency: "EUR" })).toMatchObject(
      {
        status: "approved",
      },
    );
    expect(ledger().byId(other)!.voided).toBe(true);
  });

  it("reads an unknown authorization id ('invalid transaction id', HTTP 400) as a refusal, not an unknown outcome", async () => {
    for (const operation of ["capture", "refund", "void"] as const) {
      const result = await connector()[operation]({
        operationId: newId(),
        authorizationReference: "00000000-0000-4000-8000-000000000000",
        amount: 100n,
        currency: "EUR",
      });
      expect(result, operation).toMatchObject({ status: "failed", failure: "declined", message: "invalid transaction id" });
    }
  });

  it("does not capture another merchant account's authorization", async () => {
    const reference = await approvedAuthorization();
    const other = connector(sandboxCredentials("clearhaus", 1));
    expect(await other.capture({ operationId: newId(), authorizationReference: reference, amount: 100n, currency: "EUR" })).toMatchObject({
      status: "failed",
      failure: "declined",
    });
    expect(ledger().byId(reference)!.capturedAmount).toBe(0);
  });

  it("starts a series on a cardholder payment that stores the card, and reads series.tid as the scheme transaction id", async () => {
    const first = await authorize({ credentialOnFile: { initiator: "cardholder", storeCredential: true }, threeDs: frictionless });
    expect(first.status).toBe("approved");
    expect(first.scheme?.schemeTransactionId).toMatch(/^\d{15}$/);
    expect(ledger().byId(first.processorReference!)!.series).toMatchObject({ type: "unscheduled", first: true });
  });

  it("continues the series with series[previous][id] for scheduled and unscheduled MITs, each naming the latest approval", async () => {
    const first = await authorize({ credentialOnFile: { initiator: "cardholder", storeCredential: true } });
    let previous = first.processorReference!;
    for (const paymentType of ["scheduled", "unscheduled"] as const) {
      const mit = await authorize({
        card: storedCard(VISA),
        credentialOnFile: { initiator: "merchant", paymentType, previousProcessorReference: previous },
      });
      expect(mit, paymentType).toMatchObject({ status: "approved" });
      previous = mit.processorReference!;
    }
  });

  it("refuses, before sending, an MIT without a series on this account and an incremental one", async () => {
    const before = ledger().transactions().length;
    const orphan = await authorize({
      card: storedCard(VISA),
      credentialOnFile: { initiator: "merchant", paymentType: "unscheduled", previousSchemeTransactionId: "123456789012345" },
    });
    expect(orphan).toMatchObject({ status: "failed", failure: "retryable", responsecode: "58" });
    expect(orphan.message).toMatch(/series\[previous\]\[id\]/);
    const incremental = await authorize({
      card: storedCard(VISA),
      credentialOnFile: { initiator: "merchant", paymentType: "incremental", previousProcessorReference: newId() },
    });
    expect(incremental).toMatchObject({ status: "failed", failure: "retryable", responsecode: "58" });
    expect(ledger().transactions()).toHaveLength(before);
  });

  it("a series the sandbox does not know is refused by it as an input error (HTTP 400), read as a refusal", async () => {
    const result = await authorize({
      card: storedCard(VISA),
      credentialOnFile: {
        initiator: "merchant",
        paymentType: "scheduled",
        previousProcessorReference: "0c5a5a4e-3c1d-4e4a-9c8e-1f2e3d4c5b6a",
      },
    });
    expect(result).toMatchObject({ status: "failed", failure: "declined", acquirerCode: "40000" });
  });

  it("pays out with card[name] from the recipient's names, and refuses a Mastercard credit without a name before sending", async () => {
    const payout = (pan: string, customer?: { firstName?: string; surname?: string }) =>
      connector().payout({ operationId: newId(), paymentId: newId(), amount: 5_000n, currency: "EUR", card: storedCard(pan), customer });
    expect(await payout(MASTERCARD, { firstName: "Zoë", surname: "Ångström-Berg" })).toMatchObject({ status: "approved" });
    expect(await payout(VISA)).toMatchObject({ status: "approved" });
    const before = ledger().transactions().length;
    expect(await payout(MASTERCARD)).toMatchObject({ status: "failed", failure: "retryable", responsecode: "30" });
    expect(ledger().transactions()).toHaveLength(before);
  });

  it("does not send American Express (Clearhaus takes Visa and Mastercard)", async () => {
    const result = await authorize({ card: new CardDetails({ pan: "378282246310005", expMonth: 6, expYear: year, securityCode: "1234" }) });
    expect(result).toMatchObject({ status: "failed", failure: "retryable", responsecode: "58" });
  });

  it("needs the CSC on a cardholder payment unless a signing partner signs it; the partner's RS256 signature is verified", async () => {
    const stored = storedCard(VISA);
    const use = { initiator: "cardholder", storeCredential: false, usesStoredCredential: true } as const;
    expect(await authorize({ card: stored, credentialOnFile: use })).toMatchObject({ status: "failed", failure: "retryable" });
    expect(await authorize({ card: stored, credentialOnFile: use }, connector(clearhausSigningCredentials()))).toMatchObject({
      status: "approved",
    });
  });

  it("reads a Signature that does not verify as the refusal it is", async () => {
    const signing = clearhausSigningCredentials();
    if (signing.processor !== "clearhaus") throw new Error("clearhaus credentials expected");
    // Another RSA key under the partner's key id: the sandbox's check fails.
    const { generateKeyPairSync } = await import("node:crypto");
    const { privateKey } = generateKeyPairSync("rsa", { modulusLength: 1024 });
    signing.credentials.signingPrivateKey = privateKey.export({ type: "pkcs1", format: "pem" }).toString();
    const result = await authorize({}, connector(signing));
    expect(result).toMatchObject({ status: "failed", failure: "declined", message: "invalid signature" });
  });

  it("never calls the invented look-up against a gateway without the extensions (nothing is sent)", async () => {
    await expect(connector().lookupOperation({ kind: "capture", operationId: newId() })).rejects.toThrow(/no look-up/);
    const response = await fetch(`${sandboxes.urls.clearhaus}/transactions?reference=x`, {
      headers: { authorization: `Basic ${Buffer.from(`${CLEARHAUS_SANDBOX_API_KEY}:`).toString("base64")}` },
    });
    expect(response.status).toBe(404);
  });
});
