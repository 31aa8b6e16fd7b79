// Late approvals behind time-outs are found by our operation id and voided.
import { describe, expect, it } from "vitest";
import { useTestDatabase } from "@/tests/helpers/test-database";
import { useProcessorSandboxes } from "@/tests/helpers/processor-sandboxes";
import { db } from "@/lib/db";
import { resetConfig } from "@/lib/env";
import { armAcquirerFault, clearAcquirerFaults, lateActsDone } from "@/lib/sandboxes/acquirers/faults";
import { newId } from "@/lib/ids";
import { FINARO_SANDBOX_CREDENTIALS } from "@/lib/sandboxes/acquirers/finaro";
import { sandboxConnector } from "@/tests/helpers/acquirer-accounts";
import { reconcileTimedOutAuthorizations } from "@/lib/routing/reconcile-timed-out-authorizations";
import { authorizeOperations, testCard } from "../../helpers/payment-factories";

useTestDatabase();


const services = useProcessorSandboxes({ threeDs: false, hangMs: 10_000, extensions: true });

describe("look-up by our operation id", () => {
  it.each(["finaro", "bambora", "clearhaus"] as const)("the %s sandbox finds an authorization by the operation id it was sent with", async (name) => {
    const operationId = newId();
    const connector = sandboxConnector(services.sandboxes, name);
    const authorized = await connector.authorize({
      operationId,
      paymentId: newId(),
      amount: 1_000n,
      // CAD: the one currency of bambora's first sandbox account (Bambora North America); the others take any.
      currency: "CAD",
      card: testCard("4111111111111111"),
    });
    const found = await connector.lookupOperation({ kind: "authorize", operationId });
    expect(found).toMatchObject({ status: "approved", processorReference: authorized.processorReference });
    expect(await connector.lookupOperation({ kind: "authorize", operationId: newId() })).toBeUndefined();
    // Another merchant account at the same acquirer does not see it.
    expect(await sandboxConnector(services.sandboxes, name, { index: 1 }).lookupOperation({ kind: "authorize", operationId })).toBeUndefined();
  });
});

describe("reconcileTimedOutAuthorizations", () => {
  it("an approval that is there when the time-out's look-up asks is the authorization: nothing is routed on", async () => {
    const { paymentId, result } = await services.authorizeCard("4000000000000150", { processors: ["finaro", "clearhaus"], timeoutMs: 300 });
    expect(result).toMatchObject({ status: "approved", processor: "finaro" });
    expect((await authorizeOperations(paymentId)).map((operation) => [operation.processor, operation.status])).toEqual([["finaro", "approved"]]);
  });

  it("voids a late approval at finaro (acting after the look-up said not found) after the payment was approved by clearhaus, once", async () => {
    armAcquirerFault({ mode: "act_after_caller_gave_up", processor: "finaro", operation: "authorize", amount: 10_013 });
    const { paymentId, result } = await services.authorizeCard(
      "4111111111111111",
      { processors: ["finaro", "clearhaus"], timeoutMs: 300 },
      { amount: 10_013n },
    );
    expect(result).toMatchObject({ status: "approved", processor: "clearhaus" });
    await lateActsDone();
    const [timedOut] = await authorizeOperations(paymentId);
    expect(timedOut).toMatchObject({ processor: "finaro", status: "failed", responseCode: "68" });
    const lateApproval = services.sandboxes.ledgers.finaro!.findByRequestId(FINARO_SANDBOX_CREDENTIALS.merchantId, timedOut!.id)!;
    expect(lateApproval).toMatchObject({ approved: true, voided: false });

    expect(await reconcileTimedOutAuthorizations({ olderThanMs: 60_000 })).toEqual([]);
    const reconciled = await reconcileTimedOutAuthorizations({ olderThanMs: 0 });
    expect(reconciled).toContainEqual({ operationId: timedOut!.id, processor: "finaro", outcome: "voided" });
    expect(lateApproval.voided).toBe(true);
    const after = await db().operation.findUniqueOrThrow({ where: { id: timedOut!.id } });
    expect(after).toMatchObject({ status: "failed", processorReference: lateApproval.id });
    expect(after.errorMessage).toMatch(/^reconciled: finaro approved it late; voided/);
    clearAcquirerFaults();
    expect((await db().payment.findUniqueOrThrow({ where: { id: paymentId } })).status).toBe("AUTHORIZED");

    const again = await reconcileTimedOutAuthorizations({ olderThanMs: 0 });
    expect(again.map((entry) => entry.operationId)).not.toContain(timedOut!.id);
  });

  it("marks time-outs the acquirer never saw, and those it cannot look up", async () => {
    const { paymentId } = await services.authorizeCard(
      "4000000000000119",
      { processors: ["bambora", "clearhaus"], timeoutMs: 300 },
      { currency: "CAD" },
    );
    const [atBambora, atClearhaus] = await authorizeOperations(paymentId);
    // Clearhaus as the real gateway (the test account's endpoint configured): no look-up by reference there.
    process.env.CLEARHAUS_TEST_BASE_URL = services.sandboxes.urls.clearhaus;
    resetConfig();
    let reconciled;
    try {
      reconciled = await reconcileTimedOutAuthorizations({ olderThanMs: 0 });
    } finally {
      delete process.env.CLEARHAUS_TEST_BASE_URL;
      resetConfig();
    }
    expect(reconciled).toContainEqual({ operationId: atBambora!.id, processor: "bambora", outcome: "not_found" });
    expect(reconciled).toContainEqual({ operationId: atClearhaus!.id, processor: "clearhaus", outcome: "unsupported" });
    expect((await db().operation.findUniqueOrThrow({ where: { id: atClearhaus!.id } })).errorMessage).toMatch(/no look-up by reference/);
  });
});
