// POST /api/{paymentid}/payout (spec 4.7): sends money to the card behind a payment and answers on
// the same connection with responseid, responsecode, authorizationcode, status and processor.
// The payout is its own payment (paymenttype "payout", parentpaymentid the source payment) with
// one payout operation, so it shows in the back office and in payment lookups like any other.
import { CardDetails } from "../cards/card-details";
import { decryptPan } from "../cards/card-encryption";
import { db } from "../db";
import { invalidParameter, isDatabaseOverload } from "../errors";
import { newId } from "../ids";
import { faultPoint } from "../faults/fault-point";
import { isOutcomeUnknown } from "../processors/lookup-operation-outcome";
import { getConnector, ProcessorNotConfiguredError } from "../processors/registry";
import { RESPONSE_CODES, type ProcessorName, type ProcessorResult } from "../processors/types";
import type { PayoutRequest } from "../validation/payout";
import { dispatchNotification } from "../notifications/enqueue-notification";
import { getPaymentOrThrow } from "./get-payment-or-throw";
import { notifyOperationResult } from "./notify-operation-result";
import { operationResultFields } from "./operation-result-fields";
import { holdUnknownOutcome, markCallEnded, recordPayoutResult } from "./settle-unknown-operation";

export interface PayoutOptions {
  merchantId: string;
  paymentRef: string | undefined;
  responseId: string;
  input: PayoutRequest;
}

export interface PayoutResponse {
  responseid: string;
  responsecode: string;
  authorizationcode: string;
  status: "approved" | "declined" | "failed";
  processor: string;
}

async function processorOrder(
  merchantId: string,
  requested: ProcessorName | undefined,
  source: ProcessorName | null,
): Promise<ProcessorName[]> {
  if (requested) return [requested];
  const routing = await db().processorRouting.findUnique({
    where: { merchantId_rule: { merchantId, rule: 1 } },
    select: { processors: true },
  });
  const order = [...(source ? [source] : []), ...(routing?.processors ?? [])];
  return [...new Set(order)];
}

export async function payout({ merchantId, paymentRef, responseId, input }: PayoutOptions): Promise<PayoutResponse> {
  const sourceId = await getPaymentOrThrow({ merchantId, paymentRef });
  const source = await db().payment.findUniqueOrThrow({
    where: { id: sourceId },
    select: {
      id: true,
      processor: true,
      storedCard: { select: { id: true, keyId: true, panEncrypted: true, expMonth: true, expYear: true } },
    },
  });
  if (!source.storedCard) throw invalidParameter("paymentid", "the payment has no stored card data to pay out to");
  const processors = await processorOrder(merchantId, input.processor, source.processor);
  if (processors.length === 0) throw invalidParameter("processor", "no processor is configured for this merchant");

  const paymentId = newId();
  await db().payment.create({
    data: {
      id: paymentId,
      merchantId,
      parentPaymentId: source.id,
      storedCardId: source.storedCard.id,
      status: "PENDING",
      amount: input.amount,
      currency: input.currency,
      paymentType: "payout",
      textOnStatement: input.textonstatement ?? null,
      note: input.note ?? null,
      tags: input.tags ?? null,
      customerEmail: input.email ?? null,
      customerFirstName: input.firstname ?? null,
      customerSurname: input.surename ?? null,
    },
    select: { id: true },
  });

  // From here the payout is recorded (and money may move): a database overload is no longer "nothing
  // was done", so it must not reach the merchant API's wrapper as a retryable 503 (lib/errors.ts).
  try {
    const stored = source.storedCard;
    const card = new CardDetails({
      pan: decryptPan({ keyId: stored.keyId, panEncrypted: stored.panEncrypted }),
      expMonth: stored.expMonth,
      expYear: stored.expYear,
    });
    let result: ProcessorResult = {
      status: "failed",
      failure: "retryable",
      responsecode: RESPONSE_CODES.unavailable,
      message: "no processor tried",
    };
    let usedProcessor: ProcessorName = processors[0]!;
    let unknown = false;
    let notificationId: string | null = null;
    for (const [index, processor] of processors.entries()) {
      usedProcessor = processor;
      const operationId = newId();
      await db().operation.create({
        data: {
          id: operationId,
          paymentId,
          type: "payout",
          amount: input.amount,
          currency: input.currency,
          processor,
          routingAttempt: index + 1,
          responseId,
          notificationUrl: input.notificationurl ?? null,
          note: input.note ?? null,
          tags: input.tags ?? null,
          // Unknown until the answer is recorded: a crash mid-call leaves it for the reconciliation.
          outcomeUnknownSince: new Date(),
        },
        select: { id: true },
      });
      try {
        result = await getConnector(processor).payout({
          operationId,
          paymentId,
          card,
          amount: input.amount,
          currency: input.currency,
          textOnStatement: input.textonstatement,
        });
      } catch (error) {
        result = {
          status: "failed",
          // Not configured: nothing was sent. Anything else thrown mid-call: the acquirer may have acted.
          failure: error instanceof ProcessorNotConfiguredError ? "retryable" : "indeterminate",
          responsecode: RESPONSE_CODES.unavailable,
          message: error instanceof Error ? error.message : String(error),
        };
      }
      try {
        faultPoint("payout.after-call");
      } catch (error) {
        await markCallEnded(operationId);
        throw error;
      }
      if (isOutcomeUnknown(result)) {
        // A time-out or 5xx may have paid the money out: never try the next processor. Looked up at
        // once (a found answer is recorded, with its notification, by the look-up); when still
        // unknown the payout stays pending for the reconciliation, which notifies.
        const settled = await holdUnknownOutcome({ operationId, result });
        if (settled === "approved" || settled === "declined" || settled === "failed") {
          const recorded = await db().operation.findUniqueOrThrow({
            where: { id: operationId },
            select: { responseCode: true, authorizationCode: true, notificationUrl: true },
          });
          result = {
            status: settled,
            responsecode: recorded.responseCode ?? result.responsecode,
            authorizationcode: recorded.authorizationCode ?? undefined,
          };
          // Stored by the look-up's record in its transaction (when the payout has an address).
          notificationId = recorded.notificationUrl ? await notifyOperationResult({ operationId }) : null;
        } else {
          unknown = true;
          await db().payment.update({ where: { id: paymentId }, data: { processor: usedProcessor } });
        }
        break;
      }
      // Only a failure that certainly did nothing may go on to the next processor; that attempt is
      // closed without touching the payout payment or notifying (the next attempt answers).
      if (result.status !== "approved" && result.failure === "retryable" && index < processors.length - 1) {
        await db().operation.updateMany({ where: { id: operationId, status: "pending" }, data: operationResultFields(result) });
        continue;
      }
      // The payout's final state and its notification row commit together (outbox); sent after.
      const recorded = await recordPayoutResult({ operationId, result });
      notificationId = recorded || null;
      break;
    }
    if (notificationId && !unknown) await dispatchNotification(notificationId);
    return {
      responseid: responseId,
      responsecode: result.responsecode,
      authorizationcode: result.authorizationcode ?? "",
      status: result.status,
      processor: usedProcessor,
    };
  } catch (error) {
    if (isDatabaseOverload(error))
      throw new Error("payout: the database was not reachable in time after the payout was recorded", { cause: error });
    throw error;
  }
}
