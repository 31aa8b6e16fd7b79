// Partial refunds accepted together (money review 4, N3). Finaro's refund names the one capture it
// gives back, and Finaro refuses a refund larger than what that capture still holds. Refunds that
// run at the same moment (here: thirty refunds waiting for their captures, woken together when the
// captures are found) must each name a capture with room for them: chosen under the payment's
// lock, in the transaction that claims the refund, so no two runs count the same room twice.
import { beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { merchantApiFunctions } from "@/lib/jobs/merchant-api";
import { reconcileIndeterminateOperations } from "@/lib/payments/reconcile-indeterminate-operations";
import { processorsWith } from "@/lib/acquirers/capabilities";
import { armAcquirerFault, lateActsDone } from "@/lib/sandboxes/acquirers/faults";
import {
  acquirerAuthorization,
  afterGrace,
  authorizedPayment,
  expectTotalsMatchLedger,
  requestFollowUp,
  setUpFaultWorld,
  type FaultWorld,
  eventuallyNudging,
} from "../helpers/fault-harness";
import { quietFor } from "../helpers/eventually";

const world: FaultWorld = setUpFaultWorld({ functions: async () => merchantApiFunctions });
// Two worker processes at production's concurrency (INNGEST_EMBEDDED_CONCURRENCY, default 16) beside
// the harness's own: the woken refunds run side by side, as in a deployment.
beforeAll(() => {
  world.harness.startExecutor({ concurrency: 16 });
  world.harness.startExecutor({ concurrency: 16 });
});

/**
 * A refund sent as a merchant's server sends it: with an Idempotency-Key, and sent again with the
 * same key when the service answered 500 or 503 (on a loaded machine thirty requests queued on one
 * payment's lock can outlast a transaction's time limit; such a request did nothing).
 */
async function refundWithRetry(paymentId: string, key: string): Promise<string> {
  for (let attempt = 1; ; attempt++) {
    const response = await world.api.call("POST", `/api/${paymentId}/refund`, {
      apiKey: world.merchant.apiKey,
      body: { amount: REFUND_AMOUNT },
      headers: { "idempotency-key": key },
    });
    if ((response.status === 500 || response.status === 503 || response.status === 409) && attempt < 10) {
      await quietFor(500 * attempt, "the merchant's back-off before it sends the request again");
      continue;
    }
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    return String(response.body.responseid);
  }
}

const CAPTURES = 10;
const CAPTURE_AMOUNT = 5_000;
const REFUNDS = 30;
// Three refunds fill a capture but for 500: every refund fits only if each names a capture with room.
const REFUND_AMOUNT = 1_500;

// Refunds spread over several captures: the acquirers whose authorizations take several captures.
describe.each(processorsWith("severalCaptures"))("at %s", (processor) => {
  it(`${REFUNDS} partial refunds woken together by ${CAPTURES} captures all fit: each is approved, and the books equal the ledger`, async () => {
    const { paymentId } = await authorizedPayment(world, processor, CAPTURES * CAPTURE_AMOUNT + 3);
    // The captures' answers come late: the refunds accepted meanwhile wait for them, and the round
    // that finds the captures wakes them all at once.
    armAcquirerFault({ mode: "act_after_caller_gave_up", processor, operation: "capture", amount: CAPTURE_AMOUNT, times: CAPTURES });
    const captures: string[] = [];
    for (let index = 0; index < CAPTURES; index++) captures.push(await requestFollowUp(world, paymentId, "capture", CAPTURE_AMOUNT));
    await eventuallyNudging(
      world,
      async () =>
        (await db().operation.count({ where: { paymentId, type: "capture", OR: [{ status: "approved" }, { status: "pending", callEndedAt: { not: null } }] } })) ===
        CAPTURES,
      "every capture's call ended (its outcome unknown, or already found)",
      120_000,
    );
    const refunds = await Promise.all(Array.from({ length: REFUNDS }, (_, index) => refundWithRetry(paymentId, `refund-${paymentId}-${index}`)));
    // Every refund's run has had its first go: waiting for the captures (or, where a capture was
    // already found, sent or done).
    await eventuallyNudging(
      world,
      async () => (await db().operation.count({ where: { paymentId, type: "refund", status: "pending", waitingSince: null, outcomeUnknownSince: null } })) === 0,
      "every refund's first run",
      120_000,
    );
    await lateActsDone();

    // The reconciliation's rounds find the captures, and the refunds waiting for them wake together.
    // It runs on as its cron does (a round that fails on a loaded machine is the next one's): a
    // refund's call may time out there and be found by a later look-up. The results as recorded
    // (their notifications follow in order, one receiver at a time).
    await eventuallyNudging(
      world,
      async () => {
        if ((await db().operation.count({ where: { paymentId, status: "pending" } })) === 0) return true;
        await reconcileIndeterminateOperations({ olderThanMs: 0, now: afterGrace() }).catch(() => undefined);
        return false;
      },
      "every capture and refund settled",
      300_000,
    );
    const settled = await db().operation.findMany({ where: { responseId: { in: [...captures, ...refunds] } }, select: { type: true, status: true, errorMessage: true } });
    expect(settled.filter((operation) => operation.status !== "approved"), "captures and refunds that did not go through").toEqual([]);
    expect(settled).toHaveLength(CAPTURES + REFUNDS);
    expect(await db().payment.findUniqueOrThrow({ where: { id: paymentId } })).toMatchObject({
      capturedAmount: BigInt(CAPTURES * CAPTURE_AMOUNT),
      refundedAmount: BigInt(REFUNDS * REFUND_AMOUNT),
    });
    await expectTotalsMatchLedger(world, paymentId);
    expect((await acquirerAuthorization(world, paymentId)).refundedAmount).toBe(REFUNDS * REFUND_AMOUNT);
  }, 600_000);
});
