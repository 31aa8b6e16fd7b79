// An operator settles what needs one (issue 21, M6): operations whose outcome is unknown at an
// acquirer without a look-up (Clearhaus with its base URL configured, as in
// production) wait for an operator, who records the acquirer's answer with
// `npm run cli -- operations settle` or on the payment's back-office page (owner, step-up). One
// transaction records the answer, the totals and the notification, and the audit entry; the
// ledger and our books then agree, and the merchant is told once. An operation that is not waiting
// for an operator is refused and nothing changes.
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import type { Actor } from "@/lib/auth/actor";
import { settleOperation } from "@/lib/backoffice/actions/settle-operation";
import { runCliCommand } from "@/lib/cli/commands";
import { db } from "@/lib/db";
import { merchantApiFunctions } from "@/lib/jobs/merchant-api";
import { armAcquirerFault } from "@/lib/sandboxes/acquirers/faults";
import { createUser } from "@/lib/users/create-user";
import {
  acquirerAuthorization,
  acquirerTransactionsFor,
  asRealGateway,
  authorizedPayment,
  expectTotalsMatchLedger,
  followUpWithFault,
  notificationsFor,
  operationFor,
  paymentFor,
  payoutOperation,
  requestFollowUp,
  requestPayout,
  settle,
  setUpFaultWorld,
  sourcePayment,
  uniqueAmount,
  waitForJob,
  waitForNotification,
  type FaultWorld,
} from "../helpers/fault-harness";
import { eventually } from "../helpers/eventually";

const world: FaultWorld = setUpFaultWorld({ functions: async () => merchantApiFunctions });
const PASSWORD = "a long enough owner password";
let owner: Actor;
let developer: Actor;

beforeAll(async () => {
  const user = await createUser({ merchantId: world.merchant.merchantId, email: "owner@shop.example", name: "Owner", password: PASSWORD, role: "OWNER" });
  owner = { userId: user.id, merchantId: world.merchant.merchantId, role: "OWNER", mode: "test" };
  const dev = await createUser({ merchantId: world.merchant.merchantId, email: "dev@shop.example", name: "Dev", password: PASSWORD, role: "DEVELOPER" });
  developer = { userId: dev.id, merchantId: world.merchant.merchantId, role: "DEVELOPER", mode: "test" };
});

let restore: (() => void) | undefined;
afterEach(() => {
  restore?.();
  restore = undefined;
});

/** A capture at `processor` (as the real gateway) whose answer was lost after the acquirer captured: waits for an operator. */
async function captureWaitingForOperator(processor: "clearhaus") {
  restore = asRealGateway(world, processor);
  const { paymentId, amount, responseId } = await followUpWithFault(world, "capture", processor, { mode: "answer_lost_after_acting" });
  const operation = await operationFor(responseId);
  expect(operation).toMatchObject({ status: "pending" });
  expect(operation.operatorAlertedAt).not.toBeNull();
  return { paymentId, amount, responseId, operation };
}

describe("operations settle (CLI)", () => {
  it("a Clearhaus capture waiting for an operator, settled approved: the totals, one notification and the audit entry; the books equal the ledger", async () => {
    const { paymentId, amount, responseId, operation } = await captureWaitingForOperator("clearhaus");
    // The operator finds it and checks the acquirer's report: the capture is there.
    const waiting = await runCliCommand(["operations", "waiting"], {});
    expect(waiting.text).toContain(operation.id);
    const capturedThere = (await acquirerAuthorization(world, paymentId)).children.find((child) => child.kind === "capture")!;
    const settled = await runCliCommand(["operations", "settle", operation.id], {
      outcome: "approved",
      reference: capturedThere.id,
      reason: "capture found in the Clearhaus dashboard",
    });
    expect(settled.data).toMatchObject({ operationId: operation.id, status: "approved" });
    expect((await waitForNotification(world, responseId)).body).toMatchObject({ responseid: responseId, status: "approved" });
    expect(await db().payment.findUniqueOrThrow({ where: { id: paymentId } })).toMatchObject({
      status: "CAPTURED",
      capturedAmount: BigInt(amount),
    });
    await settle(world, paymentId);
    await expectTotalsMatchLedger(world, paymentId);
    expect(notificationsFor(world, responseId)).toHaveLength(1);
    const audit = await db().auditEntry.findFirstOrThrow({
      where: { merchantId: world.merchant.merchantId, action: "operation.settled_by_operator", target: paymentId },
    });
    expect(audit.details).toMatchObject({
      operationid: operation.id,
      outcome: "approved",
      reference: capturedThere.id,
      reason: "capture found in the Clearhaus dashboard",
    });
    expect((await runCliCommand(["operations", "waiting"], {})).text).not.toContain(operation.id);
  });

  // Clearhaus has no look-up, so a payout whose answer never came waits for an operator (Bambora North
  // America, issue 26, has no payouts, and its look-ups are real).
  it("a Clearhaus payout (credit) waiting for an operator, settled declined: the payout payment fails and the merchant is told once", async () => {
    restore = asRealGateway(world, "clearhaus");
    const source = await sourcePayment(world, "clearhaus");
    const amount = uniqueAmount();
    armAcquirerFault({ mode: "hang_before_acting", processor: "clearhaus", operation: "payout", amount });
    const response = await requestPayout(world, source.paymentId, amount);
    expect(response.body).toMatchObject({ status: "pending" });
    const { operations } = await payoutOperation(source.paymentId);
    await runCliCommand(["operations", "settle", operations[0]!.id], {
      outcome: "declined",
      reason: "not in the Clearhaus settlement after two days",
    });
    const responseId = String(response.body.responseid);
    expect((await waitForNotification(world, responseId)).body).toMatchObject({ status: "declined" });
    expect((await payoutOperation(source.paymentId)).payment).toMatchObject({ status: "DECLINED", balance: 0n });
    expect(acquirerTransactionsFor(world, amount, "payout")).toHaveLength(0);
    expect(notificationsFor(world, responseId)).toHaveLength(1);
  });

  it("an MIT whose Clearhaus authorization waits for an operator, settled approved: the MIT is authorized and notified once", async () => {
    // A real first payment at Clearhaus (its series), then Clearhaus as the real gateway.
    const parent = await authorizedPayment(world, "clearhaus");
    restore = asRealGateway(world, "clearhaus");
    const amount = uniqueAmount();
    armAcquirerFault({ mode: "answer_lost_after_acting", processor: "clearhaus", operation: "authorize", amount });
    const response = await world.api.call("POST", "/api/mit", {
      apiKey: world.merchant.apiKey,
      body: {
        merchantid: world.merchant.merchantId,
        paymentid: parent.paymentId,
        amount,
        currency: "DKK",
        paymenttype: "unscheduled",
        processor: "clearhaus",
      },
    });
    const responseId = String(response.body.responseid);
    const payment = await db().payment.findFirstOrThrow({ where: { requestResponseId: responseId } });
    const attempt = await eventually(() => db().operation.findFirst({ where: { paymentId: payment.id, type: "authorize", operatorAlertedAt: { not: null } } }), {
      timeoutMs: 30_000,
      onTimeout: "return",
    });
    expect(attempt, "the attempt left for an operator").toBeDefined();
    expect(notificationsFor(world, responseId)).toHaveLength(0);
    const held = acquirerTransactionsFor(world, amount);
    expect(held.map((entry) => entry.processor)).toEqual(["clearhaus"]);
    await runCliCommand(["operations", "settle", attempt!.id], {
      outcome: "approved",
      reference: held[0]!.transaction.id,
      reason: "authorization in the Clearhaus dashboard",
    });
    expect((await waitForNotification(world, responseId)).body).toMatchObject({ status: "approved", processor: "clearhaus" });
    expect(await db().payment.findUniqueOrThrow({ where: { id: payment.id } })).toMatchObject({
      status: "AUTHORIZED",
      authorizedAmount: BigInt(amount),
    });
    expect(notificationsFor(world, responseId)).toHaveLength(1);
  });

  it("refuses an operation that is not waiting for an operator, an approval without the acquirer's reference, and changes nothing", async () => {
    const { paymentId, amount } = await paymentFor(world, "capture", "finaro");
    // Still being looked up (no alert yet): finaro's look-ups fail for a while.
    armAcquirerFault({ mode: "answer_lost_after_acting", processor: "finaro", operation: "capture", amount });
    armAcquirerFault({ mode: "hang_before_acting", processor: "finaro", operation: "lookup", times: 3 });
    const responseId = await requestFollowUp(world, paymentId, "capture", amount);
    const looking = await waitForJob(world, responseId);
    await expect(runCliCommand(["operations", "settle", looking.id], { outcome: "declined", reason: "guess" })).rejects.toThrow(
      /is not waiting for an operator: its outcome is still being looked up/,
    );
    const { operation: waiting } = await captureWaitingForOperator("clearhaus");
    await expect(runCliCommand(["operations", "settle", waiting.id], { outcome: "approved", reason: "no reference" })).rejects.toThrow(
      /needs the acquirer's reference/,
    );
    await expect(runCliCommand(["operations", "settle", waiting.id], { outcome: "maybe", reason: "x" })).rejects.toThrow(
      /approved or declined/,
    );
    expect(await operationFor(waiting.responseId!)).toMatchObject({ status: "pending" });
    expect(
      await db().auditEntry.count({
        where: { action: "operation.settled_by_operator", details: { path: ["operationid"], equals: waiting.id } },
      }),
    ).toBe(0);
  });
});

describe("the payment page's settle action (back office)", () => {
  it("an owner settles after confirming their password; a developer may not; a wrong password changes nothing", async () => {
    const { paymentId, amount, responseId, operation } = await captureWaitingForOperator("clearhaus");
    const input = { operationId: operation.id, outcome: "declined", reason: "not in the Clearhaus dashboard", currentPassword: PASSWORD };
    await expect(settleOperation({ actor: developer, input })).rejects.toThrow(/role does not allow/);
    await expect(settleOperation({ actor: owner, input: { ...input, currentPassword: "wrong" } })).rejects.toThrow(
      /password is not correct/,
    );
    expect(await operationFor(responseId)).toMatchObject({ status: "pending" });
    // The capture did reach Clearhaus (its answer was lost): the owner records what the report says.
    const captured = (await acquirerAuthorization(world, paymentId)).children.find((child) => child.kind === "capture")!;
    await settleOperation({
      actor: owner,
      input: { ...input, outcome: "approved", reference: captured.id, reason: "capture in the Clearhaus dashboard" },
    });
    expect((await waitForNotification(world, responseId)).body).toMatchObject({ status: "approved" });
    expect(await db().payment.findUniqueOrThrow({ where: { id: paymentId } })).toMatchObject({ capturedAmount: BigInt(amount) });
    const audit = await db().auditEntry.findFirstOrThrow({ where: { action: "operation.settled_by_operator", target: paymentId } });
    expect(audit.userId).toBe(owner.userId);
    await settle(world, paymentId);
    await expectTotalsMatchLedger(world, paymentId);
    await expect(settleOperation({ actor: owner, input: { ...input, outcome: "approved", reference: captured.id } })).rejects.toThrow(
      /settled already/,
    );
  });
});
