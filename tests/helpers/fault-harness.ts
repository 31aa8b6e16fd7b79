// The fault-injection suite's common set-up: the acquirer sandboxes with their fault modes, the
// merchant API over real HTTP, the Inngest functions on the embedded executor, a notification
// receiver, and the checks every case ends with: each operation the merchant was answered for is
// performed at the acquirer exactly once, notified once with its own responseid, and the payment's
// totals match the acquirer's ledger.
import { afterAll, afterEach, beforeAll, expect } from "vitest";
import { db } from "@/lib/db";
import { resetConfig } from "@/lib/env";
import { armedFaultPoints, disarmFaultPoints } from "@/lib/faults/fault-point";
import { authorizePayment } from "@/lib/payments/authorize-payment";
import { capabilitiesOf } from "@/lib/acquirers/capabilities";
import type { AcquirerName } from "@/lib/acquirers/names";
import { armAcquirerFault, clearAcquirerFaults, type AcquirerFaultMode } from "@/lib/sandboxes/acquirers/faults";
import { FINARO_SANDBOX_PATH } from "@/lib/sandboxes/acquirers/finaro";
import { NOT_FOUND_CLOSE_MS, NOT_FOUND_GRACE_MS } from "@/lib/payments/settle-unknown-operation";
import { startSandboxes, type RunningSandboxes } from "@/lib/sandboxes/acquirers/start-sandboxes";
import type { SandboxTransaction } from "@/lib/sandboxes/acquirers/ledger";
import { startInngestHarness, type InngestHarness } from "@/tests/helpers/inngest-harness";
import { startMerchantApi, type MerchantApiHarness } from "@/tests/helpers/merchant-api-harness";
import { createCapturedCardPayment, createTestMerchant, createTestPayment, type TestMerchant } from "@/tests/helpers/merchant-factories";
import { startNotificationReceiver, type NotificationReceiver, type ReceivedNotification } from "@/tests/helpers/notification-receiver";
import { useTestDatabase } from "@/tests/helpers/test-database";
import { eventually, quietFor } from "@/tests/helpers/eventually";
import type { InngestFunction } from "inngest";
import { CardDetails } from "@/lib/cards/card-details";
import { createAcquirerAccount } from "@/lib/routing/accounts/create-acquirer-account";
import { WORLDLINE_SANDBOX } from "@/lib/sandboxes/acquirers";
import { platformSandboxAccountInput } from "@/lib/sandboxes/sandbox-merchant-accounts";

/** Short enough to keep the suite quick, long enough for a loaded 2-core machine to answer in time. */
export const PROCESSOR_TIMEOUT_MS = 1_000;
export const PROCESSORS: readonly AcquirerName[] = ["finaro", "clearhaus", "bambora"];
/** The processors whose APIs take merchant-initiated authorizations, and payouts (bambora has neither: lib/acquirers/capabilities.ts). */
export const MIT_PROCESSORS: readonly AcquirerName[] = PROCESSORS.filter((name) => capabilitiesOf(name).merchantInitiated);
export const PAYOUT_PROCESSORS: readonly AcquirerName[] = PROCESSORS.filter((name) => capabilitiesOf(name).payouts);

/** A currency the test merchant's account at `processor` takes: its bambora account is a Bambora North America CAD account. */
export function currencyAt(processor: AcquirerName): string {
  return processor === "bambora" ? "CAD" : "DKK";
}

/**
 * The executor's lease on a job being called, on its (test) clock. nudge() moves that clock 20 s
 * per 100 ms while the call's lease is renewed in real time (every third of the lease), so with the
 * executor's 5 minutes a call slower than 1.5 s (a loaded machine) lost its lease and the job was
 * called again beside it: the same notification attempted twice at once, two POSTs of one webhook-id
 * (the stalled-work case "captured once" saw two). No fault test expires a lease by the clock; a
 * process that dies is kill9.test.ts's, with real processes and real time.
 */
const EXECUTOR_LEASE_MS = 30 * 24 * 60 * 60_000;

export interface FaultWorld {
  api: MerchantApiHarness;
  merchant: TestMerchant;
  receiver: NotificationReceiver;
  harness: InngestHarness;
  sandboxes: RunningSandboxes;
  /** With `worldline`: the merchant's bambora account on the Worldline platform (DKK), beside its North America one (CAD). */
  worldlineAccountId?: string;
}

/**
 * Call at the top of a test file. `functions`: the Inngest functions the file runs; `worldline`: also
 * the Worldline Direct sandbox and a bambora account on that platform, which takes the merchant's DKK
 * bambora payments (its North America account takes CAD).
 */
export function setUpFaultWorld(options: { functions: () => Promise<InngestFunction.Any[]>; worldline?: boolean }): FaultWorld {
  useTestDatabase();
  const world = {} as FaultWorld;
  beforeAll(async () => {
    process.env.PROCESSOR_TIMEOUT_MS = String(PROCESSOR_TIMEOUT_MS);
    resetConfig();
    world.sandboxes = await startSandboxes({ hangMs: PROCESSOR_TIMEOUT_MS * 4, extensions: true, worldline: options.worldline });
    world.api = await startMerchantApi();
    world.receiver = await startNotificationReceiver();
    world.harness = await startInngestHarness({
      functions: await options.functions(),
      executor: { logger: { info: () => {}, warn: () => {}, error: () => {} }, leaseMs: EXECUTOR_LEASE_MS },
    });
    // On a loaded machine the first transactions of a fresh database may wait past Prisma's start limit.
    for (let attempt = 1; ; attempt++) {
      try {
        world.merchant = await createTestMerchant({ defaultNotificationUrl: world.receiver.url });
        break;
      } catch (error) {
        if (attempt >= 3) throw error;
      }
    }
    if (options.worldline)
      world.worldlineAccountId = (
        await createAcquirerAccount({ merchantId: world.merchant.merchantId, input: platformSandboxAccountInput(WORLDLINE_SANDBOX, 0) })
      ).id;
  });
  afterEach(() => {
    const unreached = armedFaultPoints();
    disarmFaultPoints();
    clearAcquirerFaults();
    expect(unreached, "armed fault points the case never reached").toEqual([]);
  });
  afterAll(async () => {
    await world.harness?.stop();
    await world.receiver?.close();
    await world.api?.close();
    await world.sandboxes?.close();
    delete process.env.PROCESSOR_TIMEOUT_MS;
    resetConfig();
  });
  return world;
}

let amountCounter = 10_000;
/** A fresh amount per case, so that a fault armed for it hits only this case's requests. */
export function uniqueAmount(): number {
  amountCounter += 7;
  return amountCounter;
}

/**
 * The card a cardholder types in: Visa with its security code. The acquirers' references refuse a
 * cardholder payment without one (Finaro z2=-12; Clearhaus unless a signing partner signs), so a
 * stored card without its CSC is for merchant-initiated payments only (docs/acquirers.md).
 */
export function cardholderCard(pan = "4111111111111111"): CardDetails {
  return new CardDetails({ pan, expMonth: 12, expYear: new Date().getFullYear() + 3, securityCode: "123" });
}

/**
 * A payment authorized for real at `processor`'s sandbox (the cardholder's Visa, no 3-D Secure),
 * which stores the card: the parent of an MIT (at Clearhaus the first of its series).
 */
export async function authorizedPayment(world: FaultWorld, processor: AcquirerName, amount = uniqueAmount(), currency = currencyAt(processor)) {
  const { paymentId } = await createTestPayment({
    merchantId: world.merchant.merchantId,
    status: "PENDING",
    amount: BigInt(amount),
    currency,
    processor: null,
  });
  const result = await authorizePayment({ paymentId, source: { kind: "card", card: cardholderCard() }, processors: [processor] });
  expect(result.status, JSON.stringify(result)).toBe("approved");
  return { paymentId, amount };
}

/** The sandbox transaction behind the payment's approved authorization at its processor (the account's platform's sandbox). */
export async function acquirerAuthorization(world: FaultWorld, paymentId: string): Promise<SandboxTransaction> {
  const authorization = await db().operation.findFirstOrThrow({ where: { paymentId, type: "authorize", status: "approved" } });
  const onWorldline = authorization.acquirerAccountId !== null && authorization.acquirerAccountId === world.worldlineAccountId;
  const transaction = world.sandboxes.ledgers[onWorldline ? WORLDLINE_SANDBOX.name : authorization.processor!]!.byId(authorization.processorReference!);
  expect(transaction, "the acquirer knows the authorization").toBeDefined();
  return transaction!;
}

/** Every authorization (or payout) the acquirers hold for this amount, by sandbox (a processor, or a platform's: "bambora-worldline"). */
export function acquirerTransactionsFor(world: FaultWorld, amount: number, kind: SandboxTransaction["kind"] = "authorization") {
  return Object.entries(world.sandboxes.ledgers).flatMap(([processor, ledger]) =>
    (ledger?.transactions() ?? [])
      .filter((transaction) => transaction.amount === amount && transaction.kind === kind)
      .map((transaction) => ({ processor, transaction })),
  );
}

/**
 * Lets time pass for the executor: a step that failed (an injected crash) is retried after a
 * back-off on the test clock, so the clock moves on while a case waits.
 */
export async function nudge(world: FaultWorld): Promise<void> {
  await quietFor(100, "the executor's turn");
  world.harness.advance("20s");
}

/** eventually(), with the test clock moved on between two questions (see nudge). */
export function eventuallyNudging<T>(world: FaultWorld, probe: () => Promise<T | undefined | false>, what: string | (() => string), timeoutMs = 30_000): Promise<T> {
  return eventually(probe, { what, timeoutMs, intervalMs: 100, between: () => world.harness.advance("20s") });
}

/** Notifications received with this responseid. */
export function notificationsFor(world: FaultWorld, responseId: string): ReceivedNotification[] {
  return world.receiver.received.filter((request) => request.body.responseid === responseId);
}

export async function waitForNotification(world: FaultWorld, responseId: string, timeoutMs = 20_000): Promise<ReceivedNotification> {
  return eventuallyNudging(world, async () => notificationsFor(world, responseId)[0], `a notification for ${responseId}`, timeoutMs);
}

/** Waits until no operation of the payment is pending and no run of the executor is active. */
export async function settle(world: FaultWorld, paymentId: string, timeoutMs = 30_000): Promise<void> {
  let state = "";
  await eventuallyNudging(
    world,
    async () => {
      const active = await db().inngestRun.count({ where: { status: { in: ["queued", "running", "sleeping"] } } });
      const pending = await db().operation.count({ where: { paymentId, status: "pending" } });
      state = `${pending} pending, ${active} runs active`;
      return active === 0 && pending === 0;
    },
    () => `payment ${paymentId} to settle (${state})`,
    timeoutMs,
  );
}

/**
 * The payment's books against the acquirer's ledger: captured, refunded and voided as the acquirer
 * has them, and each approved operation matched by one acquirer operation of the same kind and amount.
 */
export async function expectTotalsMatchLedger(world: FaultWorld, paymentId: string): Promise<void> {
  const payment = await db().payment.findUniqueOrThrow({ where: { id: paymentId } });
  const transaction = await acquirerAuthorization(world, paymentId);
  expect({ captured: payment.capturedAmount, refunded: payment.refundedAmount, voided: payment.status === "VOIDED" }).toEqual({
    captured: BigInt(transaction.capturedAmount),
    refunded: BigInt(transaction.refundedAmount),
    voided: transaction.voided,
  });
  const approved = await db().operation.findMany({
    where: { paymentId, status: "approved", type: { in: ["capture", "refund", "void"] } },
    orderBy: { createdAt: "asc" },
  });
  const atAcquirer = transaction.children.map((child) => `${child.kind}:${child.amount}`).sort();
  const ours = approved.map((operation) => `${operation.type}:${operation.amount}`).sort();
  expect(ours).toEqual(atAcquirer);
}

export async function statusOf(paymentId: string) {
  return (await db().payment.findUniqueOrThrow({ where: { id: paymentId }, select: { status: true } })).status;
}

/** A time past the grace period of a "not found" for calls that ended now. */
export function afterGrace(): Date {
  return new Date(Date.now() + NOT_FOUND_GRACE_MS + 60_000);
}

/** A time when a trusted "not found" closes a capture, refund, void or payout whose call ended now (NOT_FOUND_CLOSE_MS). */
export function afterNotFoundClose(): Date {
  return new Date(Date.now() + NOT_FOUND_CLOSE_MS + 60_000);
}

/**
 * Points `processor`'s connector at its sandbox through the base-URL settings, as an operator
 * points it at the real gateway: the real gateway's look-up capabilities apply (no sandbox-only
 * extensions). Returns the function that restores the sandbox registration.
 */
export function asRealGateway(world: FaultWorld, processor: AcquirerName): () => void {
  const url = world.sandboxes.urls[processor]!;
  // Credentials belong to the merchant's acquirer accounts: only the address is configuration.
  const env: Record<string, string> = {
    // The fault world's accounts are test accounts: their configured endpoint is the test one.
    finaro: { FINARO_TEST_BASE_URL: `${url}${FINARO_SANDBOX_PATH}` },
    clearhaus: { CLEARHAUS_TEST_BASE_URL: url },
    bambora: { BAMBORA_TEST_BASE_URL: url },
  }[processor];
  Object.assign(process.env, env);
  resetConfig();
  return () => {
    for (const key of Object.keys(env)) delete process.env[key];
    resetConfig();
  };
}

export type FollowUp = "capture" | "refund" | "void";

/** A capture, refund or void through the merchant API (accepted: 200); its responseid. */
export async function requestFollowUp(world: FaultWorld, paymentId: string, type: FollowUp, amount?: number): Promise<string> {
  const response = await world.api.call("POST", `/api/${paymentId}/${type}`, {
    apiKey: world.merchant.apiKey,
    body: amount === undefined ? {} : { amount },
  });
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return String(response.body.responseid);
}

export async function operationFor(responseId: string) {
  return db().operation.findFirstOrThrow({ where: { responseId } });
}

/** Waits for the follow-up job to have run (the operation settled, or left unknown after its call). */
export async function waitForJob(world: FaultWorld, responseId: string) {
  return eventuallyNudging(
    world,
    async () => {
      const run = await db().inngestRun.findFirst({
        where: { functionId: { endsWith: "run-follow-up-operation" }, status: { in: ["completed", "failed"] } },
        orderBy: { startedAt: "desc" },
      });
      const operation = await operationFor(responseId);
      if (!run || (operation.status === "pending" && !operation.callEndedAt)) return undefined;
      const active = await db().inngestRun.count({ where: { status: { in: ["queued", "running", "sleeping"] } } });
      return active === 0 ? operation : undefined;
    },
    `the follow-up ${responseId} to run`,
    30_000,
  );
}

/** A payment ready for `type`: authorized (capture, void) or captured in full (refund). */
export async function paymentFor(world: FaultWorld, type: FollowUp, processor: AcquirerName, currency = currencyAt(processor)) {
  const { paymentId, amount } = await authorizedPayment(world, processor, uniqueAmount(), currency);
  if (type === "refund") {
    const capture = await requestFollowUp(world, paymentId, "capture");
    await waitForNotification(world, capture);
    await settle(world, paymentId);
  }
  return { paymentId, amount };
}

/**
 * A follow-up (`type`) on a fresh payment at `processor` (in `currency`) whose call meets the
 * acquirer fault `fault.mode`, armed for that payment's amount (a void carries none), requested
 * through the merchant API and its job run once: the payment, its amount, the responseid and the
 * operation as the job left it. The common start of a case about an unknown outcome.
 */
export async function followUpWithFault(
  world: FaultWorld,
  type: FollowUp,
  processor: AcquirerName,
  fault: { mode: AcquirerFaultMode; actDelayMs?: number },
  currency = currencyAt(processor),
) {
  const { paymentId, amount } = await paymentFor(world, type, processor, currency);
  const followUpAmount = type === "void" ? undefined : amount;
  armAcquirerFault({ ...fault, processor, operation: type, amount: followUpAmount });
  const responseId = await requestFollowUp(world, paymentId, type, followUpAmount);
  const operation = await waitForJob(world, responseId);
  return { paymentId, amount, responseId, operation };
}

/** A payment with a stored card whose own processor is `processor`; the merchant's routing lists all three after it. */
export async function sourcePayment(world: FaultWorld, processor: AcquirerName) {
  return createCapturedCardPayment(world.merchant.merchantId, processor);
}

export async function requestPayout(world: FaultWorld, paymentId: string, amount: number, extra: Record<string, unknown> = {}) {
  return world.api.call("POST", `/api/${paymentId}/payout`, {
    apiKey: world.merchant.apiKey,
    body: { amount, currency: "DKK", notificationurl: `${world.receiver.url}/payouts`, ...extra },
  });
}

export async function payoutOperation(sourceId: string) {
  const payment = await db().payment.findFirstOrThrow({ where: { parentPaymentId: sourceId, paymentType: "payout" } });
  const operations = await db().operation.findMany({ where: { paymentId: payment.id } });
  return { payment, operations };
}
