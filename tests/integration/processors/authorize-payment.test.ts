// authorizePayment through the routing, over real HTTP to the sandboxes and a real database.
import { describe, expect, it } from "vitest";
import { useTestDatabase } from "@/tests/helpers/test-database";
import { useProcessorSandboxes } from "@/tests/helpers/processor-sandboxes";
import { db } from "@/lib/db";
import { authorizePayment } from "@/lib/payments/authorize-payment";
import { runFollowUp } from "@/lib/routing/follow-up";
import { processFollowUpOperation } from "@/lib/payments/process-follow-up-operation";
import { registerSandboxUrl } from "@/lib/acquirers/registry";
import { newId } from "@/lib/ids";
import { resetConfig } from "@/lib/env";
import { authorizeOperations, createPendingPayment, createProcessorTestMerchant, testCard } from "../../helpers/payment-factories";
import { quietFor } from "@/tests/helpers/eventually";

useTestDatabase();


const services = useProcessorSandboxes({ threeDs: false, hangMs: 20_000, extensions: true });

/**
 * CAD: the one currency of the merchant's bambora account (Bambora North America accounts settle CAD
 * or USD); its finaro and clearhaus accounts take any. So every processor can be routed to.
 */
const CURRENCY = "CAD";

const authorizeCard = (pan: string, options: Parameters<typeof services.authorizeCard>[1] = {}) =>
  services.authorizeCard(pan, { timeoutMs: 5_000, ...options }, { currency: CURRENCY });

describe("authorizePayment: request processor list", () => {
  it("authorizes with the first processor and records the operation, the payment and the stored card", async () => {
    const { paymentId, result } = await authorizeCard("4111111111111111", { processors: ["clearhaus", "finaro"], responseId: "resp1" });
    expect(result).toMatchObject({ status: "approved", processor: "clearhaus", responsecode: "00" });
    expect(result.authorizationcode).toMatch(/^\d{6}$/);
    expect(result.par).toMatch(/^[A-Z0-9]{29}$/);
    const operations = await authorizeOperations(paymentId);
    expect(operations).toHaveLength(1);
    expect(operations[0]).toMatchObject({
      processor: "clearhaus",
      routingAttempt: 1,
      status: "approved",
      responseCode: "00",
      authorizationCode: result.authorizationcode,
      responseId: "resp1",
      paymentType: "cit",
    });
    expect(operations[0]!.processorReference).toBeTruthy();
    const payment = await db().payment.findUniqueOrThrow({ where: { id: paymentId }, include: { storedCard: true } });
    expect(payment).toMatchObject({ status: "AUTHORIZED", processor: "clearhaus", authorizedAmount: 10_000n });
    expect(payment.storedCard).toMatchObject({
      bin: "411111",
      last4: "1111",
      scheme: "visa",
      funding: "credit",
      segment: "consumer",
      issuer: "Sandbox Bank A/S",
      par: result.par,
    });
    expect(payment.storedCard!.panEncrypted).not.toContain("4111111111111111");
  });

  it("falls back in list order: 4000000000001000 is declined by finaro and approved by clearhaus", async () => {
    const { paymentId, result } = await authorizeCard("4000000000001000", { processors: ["finaro", "clearhaus", "bambora"] });
    expect(result).toMatchObject({ status: "approved", processor: "clearhaus" });
    const operations = await authorizeOperations(paymentId);
    expect(
      operations.map((operation) => [operation.processor, operation.routingAttempt, operation.status, operation.responseCode]),
    ).toEqual([
      ["finaro", 1, "declined", "05"],
      ["clearhaus", 2, "approved", "00"],
    ]);
    expect((await db().payment.findUniqueOrThrow({ where: { id: paymentId } })).processor).toBe("clearhaus");
  });

  it("falls back twice: 4000000000002008 is declined by finaro and clearhaus, approved by bambora", async () => {
    const { paymentId, result } = await authorizeCard("4000000000002008", { processors: ["finaro", "clearhaus", "bambora"] });
    expect(result).toMatchObject({ status: "approved", processor: "bambora" });
    expect(result.attempts.map((attempt) => [attempt.processor, attempt.result.status])).toEqual([
      ["finaro", "declined"],
      ["clearhaus", "declined"],
      ["bambora", "approved"],
    ]);
    expect(await authorizeOperations(paymentId)).toHaveLength(3);
  });

  it("follows the order of the list, not a fixed one", async () => {
    const { paymentId, result } = await authorizeCard("4000000000002008", { processors: ["bambora", "finaro"] });
    expect(result).toMatchObject({ status: "approved", processor: "bambora" });
    expect(await authorizeOperations(paymentId)).toHaveLength(1);
  });

  it("tries every processor for a card they all decline and declines the payment with the last code", async () => {
    const { paymentId, result } = await authorizeCard("4000000000009995", { processors: ["finaro", "clearhaus", "bambora"] });
    // Bambora's test environment answers every decline with its emulator's code 7 "DECLINE" (05), not the issuer's 51.
    expect(result).toMatchObject({ status: "declined", responsecode: "05", processor: "bambora" });
    const operations = await authorizeOperations(paymentId);
    expect(operations.map((operation) => operation.status)).toEqual(["declined", "declined", "declined"]);
    const payment = await db().payment.findUniqueOrThrow({ where: { id: paymentId } });
    expect(payment).toMatchObject({ status: "DECLINED", authorizedAmount: 0n });
  });

  it("records a time-out as a failed attempt (68, outcome unknown) and tries the next processor", async () => {
    const started = Date.now();
    const { paymentId, result } = await authorizeCard("4000000000000119", { processors: ["finaro", "clearhaus"], timeoutMs: 300 });
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(result).toMatchObject({ status: "failed", responsecode: "68" });
    const operations = await authorizeOperations(paymentId);
    expect(operations.map((operation) => [operation.processor, operation.status, operation.responseCode])).toEqual([
      ["finaro", "failed", "68"],
      ["clearhaus", "failed", "68"],
    ]);
    expect(operations[0]!.errorMessage).toMatch(/indeterminate/);
    expect((await db().payment.findUniqueOrThrow({ where: { id: paymentId } })).status).toBe("FAILED");
  });

  it("records an unavailable processor as a failed attempt and goes on", async () => {
    const finaroUrl = services.sandboxes.urls.finaro;
    registerSandboxUrl("finaro", undefined);
    try {
      const { paymentId, result } = await authorizeCard("4111111111111111", { processors: ["finaro", "bambora"] });
      expect(result).toMatchObject({ status: "approved", processor: "bambora" });
      const operations = await authorizeOperations(paymentId);
      expect(operations.map((operation) => [operation.processor, operation.status, operation.responseCode])).toEqual([
        ["finaro", "failed", "91"],
        ["bambora", "approved", "00"],
      ]);
    } finally {
      registerSandboxUrl("finaro", finaroUrl);
    }
  });

  it("answers a repeated call for an authorized payment from the record, without calling again", async () => {
    const { paymentId, result } = await authorizeCard("4000000000001000", { processors: ["finaro", "clearhaus"] });
    const again = await authorizePayment({
      paymentId,
      source: { kind: "card", card: testCard("4000000000001000") },
      processors: ["finaro", "clearhaus"],
    });
    expect(again).toMatchObject({ status: "approved", processor: "clearhaus", authorizationcode: result.authorizationcode });
    expect(await authorizeOperations(paymentId)).toHaveLength(2);
  });
});

describe("authorizePayment: the merchant's routing rules", () => {
  it("uses rule 1 (primary order) when the request names no processor", async () => {
    const { result } = await authorizeCard("4000000000001000");
    expect(result.attempts.map((attempt) => attempt.processor)).toEqual(["finaro", "clearhaus"]);
  });

  it("uses rule 2 (secondary order) when asked", async () => {
    const { result } = await authorizeCard("4000000000001000", { rule: 2 });
    expect(result.attempts.map((attempt) => attempt.processor)).toEqual(["bambora"]);
  });

  it("follows the merchant's edited rules", async () => {
    const merchant = await createProcessorTestMerchant();
    await db().processorRouting.update({
      where: { merchantId_rule: { merchantId: merchant, rule: 1 } },
      data: { processors: ["clearhaus", "bambora"] },
    });
    const paymentId = await createPendingPayment(merchant, { currency: CURRENCY });
    const result = await authorizePayment({ paymentId, source: { kind: "card", card: testCard("4000000000002008") }, timeoutMs: 5_000 });
    expect(result.attempts.map((attempt) => [attempt.processor, attempt.result.status])).toEqual([
      ["clearhaus", "declined"],
      ["bambora", "approved"],
    ]);
  });
});

describe("follow-up operations go to the authorizing processor", () => {
  it("captures, refunds and voids at the processor that approved after a fallback", async () => {
    const { paymentId, result } = await authorizeCard("4000000000001000", { processors: ["finaro", "clearhaus", "bambora"] });
    expect(result.processor).toBe("clearhaus");
    const payment = await db().payment.findUniqueOrThrow({
      where: { id: paymentId },
      select: { id: true, currency: true, processor: true },
    });
    const reference = result.attempts.at(-1)!.result.processorReference!;

    const capture = await runFollowUp({ payment, operation: "capture", amount: 6_000n, operationId: newId() });
    expect(capture).toMatchObject({ status: "approved", responsecode: "00" });
    expect(services.sandboxes.ledgers.clearhaus!.byId(reference)!.capturedAmount).toBe(6_000);
    expect(services.sandboxes.ledgers.finaro!.byId(reference)).toBeUndefined();

    const refund = await runFollowUp({ payment, operation: "refund", amount: 2_000n, operationId: newId() });
    expect(refund.status).toBe("approved");
    expect(services.sandboxes.ledgers.clearhaus!.byId(reference)!.refundedAmount).toBe(2_000);
  });

  it("voids at bambora when bambora authorized", async () => {
    const { paymentId, result } = await authorizeCard("4000000000002008", { processors: ["finaro", "clearhaus", "bambora"] });
    const payment = await db().payment.findUniqueOrThrow({
      where: { id: paymentId },
      select: { id: true, currency: true, processor: true },
    });
    const voided = await runFollowUp({ payment, operation: "void", amount: 10_000n, operationId: newId() });
    expect(voided.status).toBe("approved");
    expect(services.sandboxes.ledgers.bambora!.byId(result.attempts.at(-1)!.result.processorReference!)!.voided).toBe(true);
  });

  it("fails a follow-up for a payment without an approved authorization", async () => {
    const { paymentId } = await authorizeCard("4000000000000002", { processors: ["finaro"] });
    const payment = await db().payment.findUniqueOrThrow({
      where: { id: paymentId },
      select: { id: true, currency: true, processor: true },
    });
    expect(await runFollowUp({ payment, operation: "capture", amount: 100n, operationId: newId() })).toMatchObject({
      status: "failed",
      responsecode: "12",
    });
  });
});

/** A follow-up as the job runs it: a pending operation row, then processFollowUpOperation. */
async function followUp(paymentId: string, type: "capture" | "refund" | "void", amount: bigint) {
  const operationId = newId();
  await db().operation.create({ data: { id: operationId, paymentId, type, amount, currency: "DKK" } });
  await processFollowUpOperation({ operationId });
  return db().operation.findUniqueOrThrow({ where: { id: operationId } });
}

describe("what each acquirer's reference asks of a payment (issue 24)", () => {
  it("finaro refunds name one capture each; a refund no single capture covers is not sent, and nothing moves", async () => {
    const { paymentId, result } = await authorizeCard("4111111111111111", { processors: ["finaro"] });
    expect(result.status).toBe("approved");
    const first = await followUp(paymentId, "capture", 3_000n);
    const second = await followUp(paymentId, "capture", 5_000n);
    expect([first.status, second.status]).toEqual(["approved", "approved"]);
    // The authorization is named by its a1 (g4): both captures name it.
    const authorization = (await authorizeOperations(paymentId))[0]!;
    expect([first.referencedOperationId, second.referencedOperationId]).toEqual([authorization.id, authorization.id]);

    const tooLarge = await followUp(paymentId, "refund", 6_000n);
    expect(tooLarge).toMatchObject({ status: "failed", responseCode: "13" });
    expect(tooLarge.errorMessage).toMatch(/refund per capture/);
    const ledger = services.sandboxes.ledgers.finaro!.byId(authorization.processorReference!)!;
    expect(ledger.refundedAmount).toBe(0);

    const fromSecond = await followUp(paymentId, "refund", 4_000n);
    expect(fromSecond).toMatchObject({ status: "approved", referencedOperationId: second.id });
    // 1 000 left in the second capture: 3 000 comes from the first.
    const fromFirst = await followUp(paymentId, "refund", 3_000n);
    expect(fromFirst).toMatchObject({ status: "approved", referencedOperationId: first.id });
    const rest = await followUp(paymentId, "refund", 1_000n);
    expect(rest).toMatchObject({ status: "approved", referencedOperationId: second.id });
    expect(ledger).toMatchObject({ capturedAmount: 8_000, refundedAmount: 8_000 });
    expect(ledger.children.filter((child) => child.kind === "capture").map((child) => child.refundedAmount)).toEqual([3_000, 5_000]);
  });

  it("a clearhaus 50000 authorization is voided before the payment goes on to the next processor", async () => {
    const { paymentId, result } = await services.authorizeCard(
      "4200000000000000",
      { processors: ["clearhaus", "finaro"], timeoutMs: 5_000 },
      { amount: 50_000n },
    );
    expect(result).toMatchObject({ status: "approved", processor: "finaro" });
    const [atClearhaus] = await authorizeOperations(paymentId);
    expect(atClearhaus).toMatchObject({ processor: "clearhaus", status: "failed", responseCode: "96" });
    expect(atClearhaus!.errorMessage).toMatch(/^retryable: clearhaus answered 50000.*voided/);
    expect(services.sandboxes.ledgers.clearhaus!.byId(atClearhaus!.processorReference!)).toMatchObject({ holds: true, voided: true });
  });

  it("a card clearhaus does not take is not sent there: the attempt says why, and the next processor approves", async () => {
    const { paymentId, result } = await authorizeCard("378282246310005", { processors: ["clearhaus", "finaro"] });
    expect(result).toMatchObject({ status: "approved", processor: "finaro" });
    const [atClearhaus] = await authorizeOperations(paymentId);
    expect(atClearhaus).toMatchObject({ processor: "clearhaus", status: "failed", responseCode: "58", processorReference: null });
    expect(atClearhaus!.errorMessage).toBe("retryable: not sent to clearhaus: clearhaus takes Visa and Mastercard cards only, not amex");
  });

  it("clearhaus MITs continue the series of the first payment with the latest approval; finaro's name its network id", async () => {
    for (const processor of ["clearhaus", "finaro"] as const) {
      const { paymentId: parentId } = await authorizeCard("4111111111111111", { processors: [processor] });
      const parent = await db().payment.findUniqueOrThrow({ where: { id: parentId } });
      /** A merchant-initiated payment of this type at `processor`, from the first payment's stored card. */
      const authorizeMit = async (paymentType: "scheduled" | "unscheduled" | "incremental") => {
        const paymentId = await createPendingPayment(services.merchantId, { paymentType, parentPaymentId: parentId, storedCardId: parent.storedCardId! });
        const result = await authorizePayment({
          paymentId,
          source: { kind: "stored", storedCardId: parent.storedCardId! },
          processors: [processor],
          mit: { paymentType, parentPaymentId: parentId },
          timeoutMs: 5_000,
        });
        return { paymentId, result };
      };
      const first = (await authorizeOperations(parentId))[0]!;
      // Clearhaus' first-in-series answer carries series.tid; Finaro's z50.
      expect(first.schemeTransactionId, processor).toMatch(/^\d{15}$/);
      const ledger = services.sandboxes.ledgers[processor]!;
      // The cardholder's payment stores the card: at Clearhaus it starts a series (credential_on_file store and
      // initiator cardholder are its defaults), at Finaro it is a plain CIT (a9 9, not "first recurring").
      expect(ledger.byId(first.processorReference!)!.storedCredential, processor).toEqual(
        processor === "clearhaus" ? { "series[type]": "unscheduled" } : { a9: "9" },
      );
      let latest = first.processorReference!;
      for (const paymentType of ["scheduled", "unscheduled", "scheduled"] as const) {
        const { paymentId: childId, result: child } = await authorizeMit(paymentType);
        expect(child, `${processor} ${paymentType}`).toMatchObject({ status: "approved", processor });
        const [operation] = await authorizeOperations(childId);
        const named = ledger.byId(operation!.processorReference!)!.storedCredential;
        expect(named, `${processor} ${paymentType}`).toEqual(
          processor === "clearhaus"
            ? { "series[previous][id]": latest } // merchant and use are its defaults
            : { a9: paymentType === "scheduled" ? "2" : "8", g6: first.schemeTransactionId },
        );
        latest = operation!.processorReference!;
      }
      // An incremental authorization has no code at either acquirer: not sent.
      const { result: incremental } = await authorizeMit("incremental");
      expect(incremental, processor).toMatchObject({ status: "failed", responsecode: "58" });
    }
  });
});

describe("merchant-initiated payments with the stored card", () => {
  it("authorizes an MIT from the parent's stored card and refers to the first payment's scheme transaction id", async () => {
    const { paymentId: parentId } = await authorizeCard("4000000000003006", {
      processors: ["finaro"],
      threeDs: { eci: "05", authenticationValue: "AAABBBCCCDDDEEEFFF012345678=", version: "2.2.0", transStatus: "Y", messageType: "ARes" },
    });
    const parent = await db().payment.findUniqueOrThrow({ where: { id: parentId } });
    expect(parent.status).toBe("AUTHORIZED");
    const parentOperation = (await authorizeOperations(parentId))[0]!;
    expect(parentOperation.schemeTransactionId).toMatch(/^\d{15}$/);

    const childId = await createPendingPayment(services.merchantId, {
      amount: 2_500n,
      currency: CURRENCY,
      paymentType: "unscheduled",
      parentPaymentId: parentId,
      storedCardId: parent.storedCardId!,
    });
    const result = await authorizePayment({
      paymentId: childId,
      source: { kind: "stored", storedCardId: parent.storedCardId! },
      mit: { paymentType: "unscheduled", parentPaymentId: parentId },
      // At the acquirer of the first payment: a Clearhaus MIT names an earlier approval on its own
      // account (series[previous][id]), so one after a Finaro first payment is refused before sending.
      processors: ["finaro"],
    });
    expect(result).toMatchObject({ status: "approved", processor: "finaro" });
    const child = await db().payment.findUniqueOrThrow({ where: { id: childId } });
    expect(child).toMatchObject({ status: "AUTHORIZED", authorizedAmount: 2_500n, storedCardId: parent.storedCardId, sca: null });
    expect((await authorizeOperations(childId))[0]).toMatchObject({ paymentType: "unscheduled", status: "approved" });
  });

  it("never sends an MIT to bambora (its merchant-initiated payments are purchases only): skipped by the rules, refused by name", async () => {
    // The first payment at clearhaus, which its MITs then continue (series[previous][id]).
    const { paymentId: parentId } = await authorizeCard("4111111111111111", { processors: ["clearhaus"] });
    const parent = await db().payment.findUniqueOrThrow({ where: { id: parentId } });
    const child = () =>
      createPendingPayment(services.merchantId, {
        amount: 2_500n,
        currency: CURRENCY,
        paymentType: "unscheduled",
        parentPaymentId: parentId,
        storedCardId: parent.storedCardId!,
      });
    const mit = { paymentType: "unscheduled" as const, parentPaymentId: parentId };
    const atBambora = services.sandboxes.ledgers.bambora!.transactions().length;
    // Rule 2 of the default routing starts with bambora (bambora, clearhaus, finaro): bambora is skipped.
    const ruled = await child();
    const skipped = await authorizePayment({
      paymentId: ruled,
      source: { kind: "stored", storedCardId: parent.storedCardId! },
      mit,
      rule: 2,
    });
    expect(skipped).toMatchObject({ status: "approved", processor: "clearhaus" });
    expect(skipped.attempts.map((attempt) => attempt.processor)).toEqual(["clearhaus"]);
    const named = await child();
    const refused = await authorizePayment({
      paymentId: named,
      source: { kind: "stored", storedCardId: parent.storedCardId! },
      mit,
      processors: ["bambora", "finaro"],
    });
    expect(refused).toMatchObject({ status: "failed", attempts: [] });
    expect(await db().operation.count({ where: { paymentId: named } })).toBe(0);
    expect(services.sandboxes.ledgers.bambora!.transactions()).toHaveLength(atBambora);
  });

  it("refuses a stored card of another merchant", async () => {
    const { paymentId } = await authorizeCard("4111111111111111", { processors: ["finaro"] });
    const storedCardId = (await db().payment.findUniqueOrThrow({ where: { id: paymentId } })).storedCardId!;
    const otherMerchant = await createProcessorTestMerchant();
    const otherPayment = await createPendingPayment(otherMerchant);
    await expect(
      authorizePayment({ paymentId: otherPayment, source: { kind: "stored", storedCardId }, mit: { paymentType: "unscheduled" } }),
    ).rejects.toThrow(/does not belong/);
  });
});

describe("a slow processor never blocks other payments", () => {
  it("bounds each call by the configured time-out (FINARO_TIMEOUT_MS over PROCESSOR_TIMEOUT_MS)", async () => {
    process.env.PROCESSOR_TIMEOUT_MS = "5000";
    process.env.FINARO_TIMEOUT_MS = "250";
    resetConfig();
    try {
      const paymentId = await createPendingPayment(services.merchantId);
      const started = Date.now();
      const result = await authorizePayment({
        paymentId,
        source: { kind: "card", card: testCard("4000000000000119") },
        processors: ["finaro"],
      });
      const elapsed = Date.now() - started;
      expect(result).toMatchObject({ status: "failed", responsecode: "68" });
      expect(elapsed).toBeGreaterThanOrEqual(240);
      expect(elapsed).toBeLessThan(2_500);
    } finally {
      delete process.env.PROCESSOR_TIMEOUT_MS;
      delete process.env.FINARO_TIMEOUT_MS;
      resetConfig();
    }
  });

  it("authorizes other payments at the same processor while one call hangs", async () => {
    const hangingId = await createPendingPayment(services.merchantId);
    const hanging = authorizePayment({
      paymentId: hangingId,
      source: { kind: "card", card: testCard("4000000000000119") },
      processors: ["finaro"],
      timeoutMs: 4_000,
    });
    await quietFor(100, "the hanging call is under way");
    const started = Date.now();
    const others = await Promise.all(
      Array.from({ length: 6 }, async (_, index) => {
        const paymentId = await createPendingPayment(services.merchantId);
        return authorizePayment({
          paymentId,
          source: { kind: "card", card: testCard(index % 2 ? "5555555555554444" : "4111111111111111") },
          processors: ["finaro"],
          timeoutMs: 4_000,
        });
      }),
    );
    const elapsed = Date.now() - started;
    expect(others.every((result) => result.status === "approved")).toBe(true);
    expect(elapsed).toBeLessThan(3_000);
    // The hanging call is still open while the others are done.
    const pending = await db().operation.findFirstOrThrow({ where: { paymentId: hangingId } });
    expect(pending.status).toBe("pending");
    const hung = await hanging;
    expect(hung).toMatchObject({ status: "failed", responsecode: "68" });
  });
});
