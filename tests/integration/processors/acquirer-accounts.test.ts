// Each merchant settles into its own acquirer account: two merchants with different accounts at the
// same acquirer, over real HTTP to the sandboxes (which keep each account's transactions apart, as
// the acquirers do) and a real database. The sandbox ledger records the account whose credentials
// every request carried.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { useTestDatabase } from "@/tests/helpers/test-database";
import { db } from "@/lib/db";
import { getPaymentDetailOrThrow } from "@/lib/backoffice/queries/get-payment-detail";
import { newId } from "@/lib/ids";
import { authorizePayment } from "@/lib/payments/authorize-payment";
import { processFollowUpOperation } from "@/lib/payments/process-follow-up-operation";
import { updateAcquirerAccount } from "@/lib/routing/accounts/update-acquirer-account";
import { AcquirerAccountNotFoundError } from "@/lib/routing/accounts/account-rules";
import { testAcquirerConnection } from "@/lib/routing/accounts/test-acquirer-connection";
import { threeDsRequestorFor } from "@/lib/routing/accounts/three-ds-requestor";
import { startSandboxes, type RunningSandboxes } from "@/lib/sandboxes/acquirers/start-sandboxes";
import { BAMBORA_SANDBOX_ACCOUNTS } from "@/lib/sandboxes/acquirers/bambora/accounts";
import { CLEARHAUS_SANDBOX_ACCOUNTS } from "@/lib/sandboxes/acquirers/clearhaus/accounts";
import { FINARO_SANDBOX_ACCOUNTS } from "@/lib/sandboxes/acquirers/finaro/accounts";
import { ACQUIRER_NAMES, type AcquirerName } from "@/lib/acquirers/names";
import { sandboxConnector } from "@/tests/helpers/acquirer-accounts";
import { createPendingPayment, createProcessorTestMerchant, testCard } from "../../helpers/payment-factories";

useTestDatabase();

let sandboxes: RunningSandboxes;
/** Merchant A on the sandboxes' test account 2, merchant B on test account 3, at every processor. */
let merchantA: string;
let merchantB: string;

/** The acquirer's own id of sandbox account `index`: what its ledger records as the account of a transaction. */
function identity(processor: AcquirerName, index: number): string {
  switch (processor) {
    case "finaro":
      return FINARO_SANDBOX_ACCOUNTS[index]!.merchantId;
    case "clearhaus":
      return CLEARHAUS_SANDBOX_ACCOUNTS[index]!.merchantId;
    case "bambora":
      return BAMBORA_SANDBOX_ACCOUNTS[index]!.merchantId;
  }
}

/** The currency sandbox account `index` takes: any at finaro and clearhaus, the account's one currency at Bambora North America. */
function currencyOf(processor: AcquirerName, index: number): string {
  return processor === "bambora" ? BAMBORA_SANDBOX_ACCOUNTS[index]!.currency : "DKK";
}

async function accountOf(merchantId: string, processor: AcquirerName): Promise<string> {
  return (await db().acquirerAccount.findFirstOrThrow({ where: { merchantId, processor }, select: { id: true } })).id;
}

async function followUp(paymentId: string, type: "capture" | "refund" | "void", amount: bigint): Promise<string> {
  const operationId = newId();
  const { currency } = await db().payment.findUniqueOrThrow({ where: { id: paymentId }, select: { currency: true } });
  await db().operation.create({ data: { id: operationId, paymentId, type, amount, currency } });
  await processFollowUpOperation({ operationId });
  return operationId;
}

beforeAll(async () => {
  sandboxes = await startSandboxes({ threeDs: false, extensions: true });
  merchantA = await createProcessorTestMerchant({ accountIndex: 1 });
  merchantB = await createProcessorTestMerchant({ accountIndex: 2 });
});
afterAll(async () => {
  await sandboxes.close();
});

describe.each(ACQUIRER_NAMES)("two merchants with their own %s accounts", (processor) => {
  it("authorize, capture and refund each reach the acquirer under the merchant's own account, recorded on every operation", async () => {
    for (const [merchantId, index] of [
      [merchantA, 1],
      [merchantB, 2],
    ] as const) {
      const accountId = await accountOf(merchantId, processor);
      const paymentId = await createPendingPayment(merchantId, { currency: currencyOf(processor, index) });
      const result = await authorizePayment({
        paymentId,
        source: { kind: "card", card: testCard("4111111111111111") },
        processors: [processor],
      });
      expect(result).toMatchObject({ status: "approved", processor });
      const payment = await db().payment.findUniqueOrThrow({ where: { id: paymentId } });
      expect(payment.acquirerAccountId).toBe(accountId);

      const captureId = await followUp(paymentId, "capture", 10_000n);
      const refundId = await followUp(paymentId, "refund", 4_000n);
      const operations = await db().operation.findMany({ where: { paymentId }, orderBy: { createdAt: "asc" } });
      expect(operations.map((operation) => [operation.type, operation.status, operation.acquirerAccountId])).toEqual([
        ["authorize", "approved", accountId],
        ["capture", "approved", accountId],
        ["refund", "approved", accountId],
      ]);

      // The acquirer's books: the authorization and its capture and refund under this merchant's account.
      const authorization = operations[0]!;
      const transaction = sandboxes.ledgers[processor]!.byId(authorization.processorReference!)!;
      expect(transaction.account).toBe(identity(processor, index));
      expect(transaction.children.map((child) => [child.kind, child.account])).toEqual([
        ["capture", identity(processor, index)],
        ["refund", identity(processor, index)],
      ]);
      expect([captureId, refundId]).toHaveLength(2);
      // The back office's payment page names the account of the payment and of each operation.
      const detail = await getPaymentDetailOrThrow({ merchantId, mode: "test" as const, paymentId });
      const name = (await db().acquirerAccount.findUniqueOrThrow({ where: { id: accountId } })).name;
      expect(detail.acquirerAccount?.name).toBe(name);
      expect(detail.operations.map((operation) => operation.acquirerAccount?.name)).toEqual([name, name, name]);
    }
  });

  it("neither merchant's account can capture, refund, void or find the other's authorization", async () => {
    const currency = currencyOf(processor, 1);
    const paymentId = await createPendingPayment(merchantA, { currency });
    await authorizePayment({ paymentId, source: { kind: "card", card: testCard("4111111111111111") }, processors: [processor] });
    const authorization = await db().operation.findFirstOrThrow({ where: { paymentId, type: "authorize", status: "approved" } });
    const reference = authorization.processorReference!;
    const other = sandboxConnector(sandboxes, processor, { index: 2 });
    const request = {
      operationId: newId(),
      authorizationReference: reference,
      authorizationCode: authorization.authorizationCode ?? undefined,
      authorizationOperationId: authorization.id,
      amount: 1_000n,
      currency,
    };
    expect(await other.capture(request)).toMatchObject({ status: "failed" });
    expect(await other.void({ ...request, operationId: newId() })).toMatchObject({ status: "failed" });
    expect(await other.lookupOperation({ kind: "authorize", operationId: authorization.id })).toBeUndefined();
    const transaction = sandboxes.ledgers[processor]!.byId(reference)!;
    expect(transaction).toMatchObject({ account: identity(processor, 1), capturedAmount: 0, voided: false });
    expect(transaction.children).toEqual([]);
    // Its own account still can.
    expect(await sandboxConnector(sandboxes, processor, { index: 1 }).capture({ ...request, operationId: newId() })).toMatchObject({
      status: "approved",
    });
  });

  it("captures with the account that authorized after the merchant disabled and renamed it", async () => {
    const accountId = await accountOf(merchantA, processor);
    const paymentId = await createPendingPayment(merchantA, { currency: currencyOf(processor, 1) });
    await authorizePayment({ paymentId, source: { kind: "card", card: testCard("4111111111111111") }, processors: [processor] });
    await updateAcquirerAccount({ merchantId: merchantA, accountId, input: { enabled: false, name: `${processor} old` } });
    try {
      const captureId = await followUp(paymentId, "capture", 10_000n);
      const capture = await db().operation.findUniqueOrThrow({ where: { id: captureId } });
      expect(capture).toMatchObject({ status: "approved", acquirerAccountId: accountId });
      // A new payment has no account left at this processor: refused before any acquirer call.
      const next = await createPendingPayment(merchantA, { currency: currencyOf(processor, 1) });
      const refused = await authorizePayment({
        paymentId: next,
        source: { kind: "card", card: testCard("4111111111111111") },
        processors: [processor],
      });
      expect(refused).toMatchObject({ status: "failed", attempts: [] });
      expect(await db().operation.count({ where: { paymentId: next } })).toBe(0);
    } finally {
      await updateAcquirerAccount({ merchantId: merchantA, accountId, input: { enabled: true, name: `${processor} sandbox 2` } });
    }
  });

  it("tests the connection with the account's own credentials, and only for its merchant", async () => {
    const accountId = await accountOf(merchantB, processor);
    const result = await testAcquirerConnection({ merchantId: merchantB, accountId });
    expect(result).toMatchObject({ ok: true, mismatches: [] });
    if (processor === "clearhaus") expect(result.details).toMatchObject({ merchant_id: identity("clearhaus", 2) });
    await expect(testAcquirerConnection({ merchantId: merchantA, accountId })).rejects.toBeInstanceOf(AcquirerAccountNotFoundError);
    await expect(updateAcquirerAccount({ merchantId: merchantA, accountId, input: { enabled: false } })).rejects.toBeInstanceOf(
      AcquirerAccountNotFoundError,
    );
  });
});

describe("3-D Secure requestor data", () => {
  it("comes from the account that will authorize: its BIN for the card's scheme, merchant id, MCC, name and numeric country", async () => {
    const paymentId = await createPendingPayment(merchantB);
    const requestor = await threeDsRequestorFor({ paymentId, scheme: "visa" });
    // Merchant B's routing rule 1 starts with finaro: its account there (sandbox account 3).
    expect(requestor).toEqual({
      acquirerAccountId: await accountOf(merchantB, "finaro"),
      acquirerBin: "411112",
      acquirerMerchantId: identity("finaro", 2),
      mcc: "5999",
      merchantName: "Demo Shop",
      merchantCountryCode: "208",
    });
    expect((await threeDsRequestorFor({ paymentId, scheme: "amex" }))?.acquirerBin).toBeUndefined();
  });
});

describe("credentials the acquirer refuses", () => {
  it("fail the connection test with the acquirer's answer", async () => {
    const accountId = await accountOf(merchantA, "clearhaus");
    const { before } = await updateAcquirerAccount({
      merchantId: merchantA,
      accountId,
      input: { credentials: { apiKey: "11111111-2222-4333-8444-555555555555" } },
    });
    try {
      const result = await testAcquirerConnection({ merchantId: merchantA, accountId });
      expect(result).toMatchObject({ ok: false, message: expect.stringMatching(/401/) });
    } finally {
      await updateAcquirerAccount({
        merchantId: merchantA,
        accountId,
        input: { credentials: { apiKey: CLEARHAUS_SANDBOX_ACCOUNTS[1]!.apiKey } },
      });
    }
    expect(before.credentialsFingerprint).toBe(
      (await db().acquirerAccount.findUniqueOrThrow({ where: { id: accountId } })).credentialsFingerprint,
    );
  });
});
