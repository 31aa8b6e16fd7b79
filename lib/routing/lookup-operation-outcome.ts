// After a call whose answer is unknown (time-out, 5xx, connection lost, crash), asks the acquirer
// what became of the request under its ORIGINAL reference (our operation id), with the credentials
// of the acquirer account the request went out under (its transactions are kept apart from every
// other account's). Never sends the operation again: an acquirer without idempotency (Finaro) would
// act twice. What an answer is worth depends on the acquirer's look-up for that kind of operation
// (ProcessorConnector.lookups): a "not found" proves nothing where the acquirer's look-up cannot
// tell "never received" apart.
import { AcquirerAccountMissingError, getAccountConnector, operationAccountId } from "./accounts/account-connector";
import { db } from "../db";
import { ProcessorNotConfiguredError } from "../acquirers/registry";
import { FOLLOW_UP_OPERATIONS, type LookupOperationRequest, type ProcessorResult } from "../acquirers/contract";
import type { AcquirerName } from "../acquirers/names";

export type OperationOutcome =
  /** The acquirer has it: its answer (approved or declined). */
  | { kind: "found"; result: ProcessorResult }
  /**
   * The acquirer has no such request. `proof`: its look-up is reliable for this kind, so (once the
   * call's grace period has passed) the acquirer never received it; without proof it settles nothing.
   */
  | { kind: "not_found"; proof: boolean }
  /** The acquirer offers no look-up for this kind of operation: only an operator can settle it. */
  | { kind: "no_lookup"; message: string }
  /** The look-up itself got no usable answer: still unknown, try again later. */
  | { kind: "unknown"; message: string };

export interface LookupOperationOutcomeOptions extends LookupOperationRequest {
  processor: AcquirerName;
  timeoutMs?: number;
}

export async function lookupOperationOutcome({
  processor,
  kind,
  operationId,
  timeoutMs,
}: LookupOperationOutcomeOptions): Promise<OperationOutcome> {
  const accountId = await operationAccountId(operationId);
  // Without the account, the acquirer cannot be asked: unknown, for an operator (never another account's look-up).
  if (!accountId) return { kind: "unknown", message: `no acquirer account is recorded for operation ${operationId} at ${processor}` };
  try {
    const connector = await getAccountConnector({ accountId, timeoutMs });
    const capability = connector.lookups[kind];
    if (!capability.lookup) return { kind: "no_lookup", message: capability.source };
    const found = await connector.lookupOperation({
      kind,
      operationId,
      // A capture, refund or void is found through the payment's authorization where an acquirer needs it
      // (an authorization and a payout are payments of their own).
      ...((FOLLOW_UP_OPERATIONS as readonly string[]).includes(kind) ? { authorizationReference: await authorizationReferenceOf(operationId, accountId) } : {}),
    });
    if (!found) return { kind: "not_found", proof: capability.notFoundIsProof };
    // A look-up that itself failed (e.g. a 5xx inside the answer) settles nothing.
    if (found.status === "failed" && found.failure !== "declined") return { kind: "unknown", message: found.message ?? found.responsecode };
    return { kind: "found", result: found };
  } catch (error) {
    if (error instanceof ProcessorNotConfiguredError || error instanceof AcquirerAccountMissingError)
      return { kind: "unknown", message: error.message };
    return { kind: "unknown", message: error instanceof Error ? error.message : String(error) };
  }
}

/** The acquirer's id of the approved authorization of the operation's payment, on the same account (where a capture, refund or void is found). */
async function authorizationReferenceOf(operationId: string, accountId: string): Promise<string | undefined> {
  const operation = await db().operation.findUnique({ where: { id: operationId }, select: { paymentId: true } });
  if (!operation) return undefined;
  const authorization = await db().operation.findFirst({
    where: { paymentId: operation.paymentId, type: "authorize", status: "approved", acquirerAccountId: accountId },
    orderBy: { createdAt: "desc" },
    select: { processorReference: true },
  });
  return authorization?.processorReference ?? undefined;
}

/** True when a result leaves the acquirer's action unknown: the operation must not be closed or sent elsewhere. */
export function isOutcomeUnknown(result: ProcessorResult): boolean {
  return result.status === "failed" && result.failure === "indeterminate";
}
