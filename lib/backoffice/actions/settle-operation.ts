// The back-office side of an operator's settlement (docs/operations.md, "Unknown outcomes"): an
// owner records the acquirer's answer to one of the merchant's operations whose outcome is unknown
// and that waits for an operator, after confirming their password (step-up). The same use case as
// `npm run cli -- operations settle`, scoped to the owner's merchant and audited under their name.
import { z } from "zod";
import { assertCan } from "../../auth/actor";
import { confirmIdentity } from "../../auth/confirm-identity";
import { finishAfterOperatorSettlement } from "../../cardholder/finish-stuck-payments";
import { OperationNotAwaitingOperatorError, settleOperationByOperator } from "../../payments/settle-operation-by-operator";
import { UserFacingError } from "../action-result";
import { recordAudit } from "../../audit/audit";
import type { StepUpRequest } from "./step-up-request";

export const settleOperationInput = z.object({
  operationId: z.string().regex(/^[A-Za-z0-9]{1,32}$/),
  outcome: z.enum(["approved", "declined"], { error: "Choose what the acquirer's report says" }),
  reference: z.string().trim().max(200, "Use at most 200 characters").optional(),
  reason: z.string({ error: "Say what you checked" }).trim().min(1, "Say what you checked").max(500, "Use at most 500 characters"),
});

export async function settleOperation({ actor, input, ipAddress = null }: StepUpRequest) {
  assertCan(actor, "payments:settle");
  const { operationId, outcome, reference, reason } = settleOperationInput.parse(input);
  await confirmIdentity({ userId: actor.userId, input, ipAddress });
  try {
    const settled = await settleOperationByOperator({
      operationId,
      outcome,
      reference,
      reason,
      by: { userId: actor.userId, label: `back-office user ${actor.userId}`, merchantId: actor.merchantId },
      audit: (tx, entry) => recordAudit(tx, { actor, action: "operation.settled_by_operator", target: entry.paymentId, details: { ...entry.details } }),
    });
    await finishAfterOperatorSettlement(settled);
    return settled;
  } catch (error) {
    if (error instanceof OperationNotAwaitingOperatorError) {
      throw new UserFacingError(error.message.replace(/^operation \S+ /, "This operation "), {
        field: error.message.includes("reference") ? "reference" : undefined,
      });
    }
    throw error;
  }
}
