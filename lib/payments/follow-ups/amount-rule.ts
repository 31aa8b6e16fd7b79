// What every follow-up's amount rule is given and may throw: the payment's state and the totals of
// its operations (./kinds.ts lists the rule of each kind).
import { invalidParameter } from "../../errors";
import type { PaymentStatus } from "../../generated/prisma/enums";
import type { AcquirerName } from "../../acquirers/names";
import { deriveDisplayState, displayStateWords } from "../derive-display-state";
import type { OperationTotals } from "../operation-totals";

export interface FollowUpPaymentState {
  status: PaymentStatus;
  authorizedAmount: bigint;
  /** The processor that authorized it: what its API allows (lib/acquirers/capabilities.ts). */
  processor?: AcquirerName | null;
  /** The platform of the account that authorized it (decision 0193): what that API allows. */
  platform?: string | null;
}

/** Decides the amount of a follow-up, or throws INVALID_PARAMETER naming the broken rule. */
export type AmountRule = (payment: FollowUpPaymentState, totals: OperationTotals, requested: bigint | undefined) => bigint;

/**
 * Refuses a follow-up the payment's state does not allow, naming the state as the back office and
 * the CSV export do ("partially refunded", not the coarse stored "refunded"). The spec fixes no
 * payment status values in answers; this text is ours.
 */
export function notInState(action: string, payment: FollowUpPaymentState, totals: OperationTotals): never {
  const state = deriveDisplayState({
    status: payment.status,
    paymentType: "cit",
    authorizedAmount: payment.authorizedAmount,
    capturedAmount: totals.capturedApproved,
    refundedAmount: totals.refundedApproved,
    authorizationAttempted: true,
  });
  throw invalidParameter("paymentid", `the payment cannot be ${action} in its state (${displayStateWords(state)})`);
}
