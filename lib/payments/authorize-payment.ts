// Authorizes a payment through the routing: tries the processors in order until one approves,
// recording every attempt as an authorize Operation, then updates the Payment.
import type { CardDetails } from "../cards/card-details";
import type { MitPaymentType, ProcessorName, ProcessorResult, ThreeDsResult } from "../processors/types";
import type { Tx } from "../db";

/** Where the card comes from: card data in memory (cardholder flow) or the payment's stored card (MIT, on behalf). */
export type AuthorizationCardSource =
  | { kind: "card"; card: CardDetails; /** keep the card for later payments (default true) */ store?: boolean }
  | { kind: "stored"; storedCardId: string };

export interface AuthorizePaymentOptions {
  /** The Payment row (status PENDING, or DECLINED when FALLBACK_3DS retries with 3-D Secure). */
  paymentId: string;
  source: AuthorizationCardSource;
  /** The request's `processor` list, tried in order; empty or absent: the merchant's routing for `rule`. */
  processors?: ProcessorName[];
  /** 1 primary (default), 2 secondary. */
  rule?: number;
  /** Merchant-initiated payment (api/mit). */
  mit?: { paymentType: MitPaymentType; parentPaymentId?: string };
  /** 3-D Secure outcome (transStatus Y or A) to send to the acquirer. */
  threeDs?: ThreeDsResult;
  /** The `responseid` of the merchant request, written on each operation. */
  responseId?: string;
  customerIp?: string;
  /** Only for tests and the CLI: the per-call time-out override in milliseconds. */
  timeoutMs?: number;
}

export interface AuthorizationAttempt {
  operationId: string;
  processor: ProcessorName;
  routingAttempt: number;
  result: ProcessorResult;
}

export interface AuthorizePaymentResult {
  status: "approved" | "declined" | "failed";
  /** The processor that approved, or the last one tried. */
  processor?: ProcessorName;
  responsecode: string;
  authorizationcode?: string;
  eci?: string;
  par?: string;
  attempts: AuthorizationAttempt[];
}

export type { Tx };
