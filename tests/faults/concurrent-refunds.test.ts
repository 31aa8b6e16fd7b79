// Partial refunds accepted together (money review 4, N3). Finaro's refund names the one capture it
// gives back, and Finaro refuses a refund larger than what that capture still holds. Refunds that
// run at the same moment must each name a capture with room for them: chosen under the payment's
// lock, in the transaction that claims the refund, so no two runs count the same room twice.
import { describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { merchantApiFunctions } from "@/lib/jobs/merchant-api";
import { processorsWith } from "@/lib/processors/capabilities";
import {
  acquirerAuthorization,
  authorizedPayment,
  expectTotalsMatchLedger,
  requestFollowUp,
  settle,
  setUpFaultWorld,
  waitForNotification,
  type FaultWorld,
} from "./fault-harness";

const world: FaultWorld = setUpFaultWorld({ functions: async () => merchantApiFunctions });

const CAPTURES = 10;
const CAPTURE_AMOUNT = 5_000;
const REFUNDS = 30;
// Three refunds fill a capture but for 500: every refund fits only if each names a capture with room.
const REFUND_AMOUNT = 1_500;

// Refunds spread over several captures: the acquirers whose authorizations take several captures.
describe.each(processorsWith("severalCaptures"))("at %s", (processor) => {
  it(`${REFUNDS} partial refunds accepted at once over ${CAPTURES} captures all fit: each is approved, and the books equal the ledger`, async () => {
    const { paymentId } = await authorizedPayment(world, processor, CAPTURES * CAPTURE_AMOUNT + 3);
    const captures = await Promise.all(Array.from({ length: CAPTURES }, () => requestFollowUp(world, paymentId, "capture", CAPTURE_AMOUNT)));
    for (const capture of captures) expect((await waitForNotification(world, capture, 60_000)).body).toMatchObject({ status: "approved" });
    await settle(world, paymentId, 60_000);

    const refunds = await Promise.all(Array.from({ length: REFUNDS }, () => requestFollowUp(world, paymentId, "refund", REFUND_AMOUNT)));
    const results = [];
    for (const refund of refunds) results.push((await waitForNotification(world, refund, 120_000)).body);
    await settle(world, paymentId, 120_000);
    const failed = results.filter((body) => body.status !== "approved");
    expect(failed, "refunds that did not go through").toEqual([]);
    expect(await db().payment.findUniqueOrThrow({ where: { id: paymentId } })).toMatchObject({
      capturedAmount: BigInt(CAPTURES * CAPTURE_AMOUNT),
      refundedAmount: BigInt(REFUNDS * REFUND_AMOUNT),
    });
    await expectTotalsMatchLedger(world, paymentId);
    expect((await acquirerAuthorization(world, paymentId)).refundedAmount).toBe(REFUNDS * REFUND_AMOUNT);
  });
});
