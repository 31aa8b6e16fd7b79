// Follow-up operations (capture, refund, void) go to the processor that authorized the payment,
// referring to its authorization by the acquirer's own id.
import type { FollowUpOperation, ProcessorName, ProcessorResult } from "./types";

export interface FollowUpPayment {
  id: string;
  currency: string;
  processor: ProcessorName | null;
}

export interface RunFollowUpOptions {
  /** The payment as loaded by the caller (id, currency, processor). */
  payment: FollowUpPayment;
  operation: FollowUpOperation;
  /** Minor units. */
  amount: bigint;
  /** Our operation id of this follow-up (sent to the acquirer as its request reference). */
  operationId: string;
  textOnStatement?: string;
  timeoutMs?: number;
}
