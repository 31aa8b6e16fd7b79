// Xacquirer requests and answers, pure: our requests to the acquirer's wire format and its answers to
// ProcessorResult. REPLACE with the acquirer's reference: every field names its source there
// (docs/acquirers.md), every status maps through an exhaustive switch, and a request that cannot be
// formed throws RequestNotFormedError (nothing is sent).
import { z } from "zod";
import { RESPONSE_CODES, type AuthorizeRequest, type PayoutRequest, type ProcessorResult } from "../contract";

/** An authorization (or a payout) as the acquirer takes it. */
export function toXacquirerPayment(request: AuthorizeRequest | PayoutRequest) {
  return {
    reference: request.operationId,
    amount: Number(request.amount),
    currency: request.currency,
    card: {
      number: request.card.revealPan(),
      expiry_month: request.card.expMonth,
      expiry_year: request.card.expYear,
      ...(request.card.revealSecurityCode() ? { cvc: request.card.revealSecurityCode() } : {}),
    },
  };
}

/** A capture, refund or void of an earlier transaction. */
export function toXacquirerFollowUp(request: { operationId: string; amount: bigint; currency: string }) {
  return { reference: request.operationId, amount: Number(request.amount), currency: request.currency };
}

export const xacquirerTransaction = z.object({
  id: z.string(),
  status: z.enum(["approved", "declined"]),
  code: z.string().regex(/^[0-9A-Z]{2,3}$/).optional(),
  approval_code: z.string().optional(),
  message: z.string().optional(),
});
export type XacquirerTransaction = z.infer<typeof xacquirerTransaction>;

export const xacquirerError = z.object({ error: z.object({ code: z.string(), message: z.string() }) });

export function fromXacquirerTransaction(transaction: XacquirerTransaction, eci?: string): ProcessorResult {
  switch (transaction.status) {
    case "approved":
      return {
        status: "approved",
        responsecode: RESPONSE_CODES.approved,
        authorizationcode: transaction.approval_code,
        processorReference: transaction.id,
        eci,
        message: transaction.message,
      };
    case "declined":
      return {
        status: "declined",
        failure: "declined",
        responsecode: transaction.code ?? RESPONSE_CODES.doNotHonour,
        processorReference: transaction.id,
        acquirerCode: transaction.code,
        message: transaction.message,
      };
  }
}

/** The acquirer refused the request itself (a field, a state): the same request is refused again. */
export function fromXacquirerError(error: z.infer<typeof xacquirerError>): ProcessorResult {
  return {
    status: "failed",
    failure: "declined",
    responsecode: RESPONSE_CODES.invalidTransaction,
    acquirerCode: error.error.code,
    message: `xacquirer refused the request: ${error.error.message}`,
  };
}
