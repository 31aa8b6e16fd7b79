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
import { ProcessorNotConfiguredError } from "../processors/registry";
import { assertRoutable, type RoutedAccount } from "../processors/routing";
import { AcquirerAccountMissingError, getAccountForCall } from "../processors/accounts/account-connector";
import { RESPONSE_CODES, type ProcessorName, type ProcessorResult } from "../processors/types";
import type { PayoutRequest } from "../validation/payout";
import { dispatchNotification } from "../notifications/enqueue-notification";
import { getPaymentOrThrow } from "./get-payment-or-throw";
import { notifyOperationResult } from "./notify-operation-result";
import { operationResultFields } from "./operation-result-fields";
import { holdUnknownOutcome } from "./settle-unknown-operation";
import { checkPayoutAllowed } from "./check-payout-allowed";
import { isTestCardNumber } from "../cards/test-card-numbers";
import type { Mode } from "../mode";

export interface PayoutOptions {
  merchantId: string;
  /** The API key's mode: the source payment must be of it, and the payout is. */
  mode: Mode;
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

/**
 * The requested processor's account, or: the account that authorized the source payment first (when
 * it is still enabled and takes the currency), then the merchant's rule 1. Refused (nothing made)
 * when no account fits.
 */
async function accountOrder(
  merchantId: string,
  mode: Mode,
  currency: string,
  requested: ProcessorName | undefined,
  sourceAccountId: string | null,
): Promise<RoutedAccount[]> {
  const accounts = await assertRoutable({ merchantId, mode, currency, requested: requested ? [requested] : undefined, rule: 1 });
  if (requested) return accounts;
  const source = accounts.find((account) => account.accountId === sourceAccountId);
  return source ? [source, ...accounts.filter((account) => account !== source)] : accounts;
}

export async function payout({ merchantId, mode, paymentRef, responseId, input }: PayoutOptions): Promise<PayoutResponse> {
  const sourceId = await getPaymentOrThrow({ merchantId, mode, paymentRef });
  const source = await db().payment.findUniqueOrThrow({
    where: { id: sourceId },
    select: {
      id: true,
      processor: true,
      paymentType: true,
      status: true,
      acquirerAccountId: true,
      storedCard: { select: { id: true, keyId: true, panEncrypted: true, expMonth: true, expYear: true } },
    },
  });
  if (!source.storedCard) throw invalidParameter("paymentid", "the payment has no stored card data to pay out to");
  const stored = source.storedCard;
  const card = new CardDetails({
    pan: decryptPan({ keyId: stored.keyId, panEncrypted: stored.panEncrypted }),
    expMonth: stored.expMonth,
    expYear: stored.expYear,
  });
  // Live money never goes to a published test card (one stored before test mode existed).
  if (mode === "live" && isTestCardNumber(card.revealPan())) {
    throw invalidParameter("paymentid", "the payment's card is a test card number: live payouts never go to test cards");
  }
  const accounts = await accountOrder(merchantId, mode, input.currency, input.processor, source.acquirerAccountId);

  const paymentId = newId();
  // The source card and the merchant's payout limits are checked, and the payout recorded, in one
  // transaction under a lock, before any money moves (review 3, M7: ./check-payout-allowed.ts).
  await db().$transaction(async (tx) => {
    await checkPayoutAllowed({ tx, merchantId, mode, source, amount: BigInt(input.amount), currency: input.currency });
    await tx.payment.create({
      data: {
        id: paymentId,
        merchantId,
        mode,
        parentPaymentId: source.id,
        storedCardId: source.storedCard!.id,
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
  });

  // From here the payout is recorded (and money may move): a database overload is no longer "nothing
  // was done", so it must not reach the merchant API's wrapper as a retryable 503 (lib/errors.ts).
  try {
    let result: ProcessorResult = {
      status: "failed",
      failure: "retryable",
      responsecode: RESPONSE_CODES.unavailable,
      message: "no processor tried",
    };
    let usedProcessor: ProcessorName = accounts[0]!.processor;
    let usedAccountId = accounts[0]!.accountId;
    let operationId = "";
    let unknown = false;
    for (const [index, { processor, accountId }] of accounts.entries()) {
      usedProcessor = processor;
      usedAccountId = accountId;
      operationId = newId();
      await db().operation.create({
        data: {
          id: operationId,
          paymentId,
          type: "payout",
          amount: input.amount,
          currency: input.currency,
          processor,
          acquirerAccountId: accountId,
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
        const { connector, descriptor } = await getAccountForCall({ accountId });
        result = await connector.payout({
          operationId,
          paymentId,
          card,
          amount: input.amount,
          currency: input.currency,
          textOnStatement: input.textonstatement ?? descriptor,
        });
      } catch (error) {
        result = {
          status: "failed",
          // Not configured: nothing was sent. Anything else thrown mid-call: the acquirer may have acted.
          failure:
            error instanceof ProcessorNotConfiguredError || error instanceof AcquirerAccountMissingError ? "retryable" : "indeterminate",
          responsecode: RESPONSE_CODES.unavailable,
          message: error instanceof Error ? error.message : String(error),
        };
      }
      faultPoint("payout.after-call");
      if (isOutcomeUnknown(result)) {
        // A time-out or 5xx may have paid the money out: never try the next processor. Looked up at
        // once; when still unknown the payout stays pending for the reconciliation, which notifies.
        const settled = await holdUnknownOutcome({ operationId, result });
        if (settled === "approved" || settled === "declined" || settled === "failed") {
          const recorded = await db().operation.findUniqueOrThrow({
            where: { id: operationId },
            select: { responseCode: true, authorizationCode: true },
          });
          unknown = false;
          result = {
            status: settled,
            responsecode: recorded.responseCode ?? result.responsecode,
            authorizationcode: recorded.authorizationCode ?? undefined,
          };
        } else unknown = true;
        break;
      }
      await db().operation.update({
        where: { id: operationId },
        data: operationResultFields(result),
      });
      // Only a failure that certainly did nothing may go on to the next processor.
      if (result.status === "approved" || result.failure !== "retryable") break;
    }
    let notificationId: string | null = null;
    if (!unknown) {
      const outcome = result;
      // The payout's final state and its notification row commit together (outbox); sent after.
      notificationId = await db().$transaction(async (tx) => {
        await tx.payment.update({
          where: { id: paymentId },
          data: {
            processor: usedProcessor,
            acquirerAccountId: usedAccountId,
            status: outcome.status === "approved" ? "CAPTURED" : outcome.status === "declined" ? "DECLINED" : "FAILED",
            // Money paid out reduces what the merchant holds.
            balance: outcome.status === "approved" ? -input.amount : 0n,
          },
        });
        return input.notificationurl ? notifyOperationResult({ operationId, tx }) : null;
      });
    } else {
      // The outcome is unknown: the reconciliation notifies the settled result.
      await db().payment.update({ where: { id: paymentId }, data: { processor: usedProcessor, acquirerAccountId: usedAccountId } });
    }
    if (notificationId) await dispatchNotification(notificationId);
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
