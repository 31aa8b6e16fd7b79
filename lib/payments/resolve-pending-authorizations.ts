// Before a payment is routed again (a retried MIT step, the cardholder's next goPay() after a
// crash), every authorization attempt still pending is settled under its ORIGINAL reference by the
// rules of lib/payments/settle-unknown-operation.ts (lease, capabilities): a pending row means the
// call was sent and its answer never recorded, so the card may already be held. Routing again
// under new references would hold it a second time.
import { db } from "../db";
import type { ProcessorResult } from "../acquirers/contract";
import type { AcquirerName } from "../acquirers/names";
import { settleUnknownOperation } from "./settle-unknown-operation";

export class AuthorizationOutcomeUnknownError extends Error {
  constructor(
    readonly operationId: string,
    readonly processor: AcquirerName,
    detail: string,
  ) {
    super(`the authorization attempt ${operationId} at ${processor} is still unknown (${detail}); the payment is not routed again`);
    this.name = "AuthorizationOutcomeUnknownError";
  }
}

export interface ResolvedAuthorization {
  operationId: string;
  processor: AcquirerName;
  result: ProcessorResult;
}

/**
 * Settles the payment's pending authorization attempts. Returns the one the acquirer approved, if
 * any; throws AuthorizationOutcomeUnknownError when a look-up gets no answer (try again later).
 */
export async function resolvePendingAuthorizations({ paymentId }: { paymentId: string }): Promise<ResolvedAuthorization | undefined> {
  const pending = await db().operation.findMany({
    where: { paymentId, type: "authorize", status: "pending", processor: { not: null } },
    orderBy: { createdAt: "asc" },
    select: { id: true, processor: true },
  });
  let approved: ResolvedAuthorization | undefined;
  for (const attempt of pending) {
    const processor = attempt.processor!;
    const settled = await settleUnknownOperation({ operationId: attempt.id });
    if (settled === "unknown" || settled === "operator") throw new AuthorizationOutcomeUnknownError(attempt.id, processor, settled);
    if (settled !== "approved" || approved) continue;
    const row = await db().operation.findUniqueOrThrow({
      where: { id: attempt.id },
      select: { responseCode: true, authorizationCode: true, processorReference: true, eci: true },
    });
    const result: ProcessorResult = {
      status: "approved",
      responsecode: row.responseCode ?? "00",
      authorizationcode: row.authorizationCode ?? undefined,
      processorReference: row.processorReference ?? undefined,
      eci: row.eci ?? undefined,
    };
    approved = { operationId: attempt.id, processor, result };
  }
  return approved;
}
