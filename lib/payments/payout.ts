// POST /api/{paymentid}/payout (spec 4.7): sends money to the card behind a payment and answers on
// the same connection with responseid, responsecode, authorizationcode, status and processor.
// The payout is its own payment (paymenttype "payout", parentpaymentid the source payment) with
// one payout operation per processor tried, so it shows in the back office and in payment lookups
// like any other. Its final result is always notified (spec 6.4 shape) to the request's address,
// else the merchant's default; a payout whose result could reach nobody is refused up front.
// An unknown outcome answers status "pending": never "failed" while the money may have left
// (docs/decisions/0105-unknown-outcomes-when-not-found-is-trusted-what.md); the notification brings the final result.
import { openStoredCard, STORED_CARD_SELECT } from "../cards/stored-card";
import { db, Prisma } from "../db";
import { invalidParameter, isDatabaseOverload } from "../errors";
import { newId } from "../ids";
import { isOutcomeUnknown } from "../routing/lookup-operation-outcome";
import { processorTimeoutMs } from "../acquirers/registry";
import { assertRoutable, type RoutedAccount } from "../routing/routing";
import { ACQUIRER_NAMES, type AcquirerName } from "../acquirers/names";
import type { PayoutRequest } from "../validation/payout";
import { dispatchNotification } from "../notifications/enqueue-notification";
import { resolveNotificationUrl } from "../notifications/resolve-notification-url";
import { getPaymentOrThrow } from "./get-payment-or-throw";
import { notifyOperationResult } from "./notify-operation-result";
import { operationResultFields } from "./operation-result-fields";
import { CALL_LEASE_MARGIN_MS, holdUnknownOutcome, recordPayoutResult } from "./settle-unknown-operation";
import { tryAcquirerAccounts } from "./try-acquirer-accounts";
import { checkPayoutAllowed } from "./check-payout-allowed";
import { isTestCardInLive } from "../routing/test-cards";
import type { Mode } from "../mode";
import { customerColumns } from "./customer-columns";

export interface PayoutOptions {
  merchantId: string;
  /** The API key's mode: the source payment must be of it, and the payout is. */
  mode: Mode;
  paymentRef: string | undefined;
  responseId: string;
  input: PayoutRequest;
}

/** The answer of spec 4.7; `pending`: the outcome is not known yet, the notification brings it. */
export interface PayoutResponse {
  responseid: string;
  responsecode: string;
  authorizationcode: string;
  status: "approved" | "declined" | "failed" | "pending";
  processor: string;
}

/**
 * How long a payout request may work: every processor tried, each call and its look-up at the
 * longest configured time-out, plus a margin. An Idempotency-Key's holder keeps its lease that long.
 */
export function payoutLeaseMs(): number {
  const longest = Math.max(...ACQUIRER_NAMES.map((name) => processorTimeoutMs(name)));
  return ACQUIRER_NAMES.length * 2 * longest + 2 * CALL_LEASE_MARGIN_MS;
}

/**
 * The answer a payout gives now, from its operations (the last processor tried): what the request
 * answers at its end, and what a repeat with the same Idempotency-Key gets after the first request
 * died or failed. Undefined when no payout carries this responseid.
 */
export async function payoutAnswer(responseId: string): Promise<PayoutResponse | undefined> {
  const operation = await db().operation.findFirst({
    where: { responseId, type: "payout" },
    orderBy: [{ routingAttempt: "desc" }, { createdAt: "desc" }],
    select: { status: true, responseCode: true, authorizationCode: true, processor: true },
  });
  if (!operation) return undefined;
  return {
    responseid: responseId,
    responsecode: operation.responseCode ?? "",
    authorizationcode: operation.status === "approved" ? (operation.authorizationCode ?? "") : "",
    status: operation.status,
    processor: operation.processor ?? "",
  };
}

function payoutReferenceUsed() {
  return invalidParameter("newmerchantpaymentid", "is already used by another payment of this merchant");
}

async function payoutReferenceTaken(merchantId: string, mode: Mode, merchantPaymentId: string): Promise<boolean> {
  const taken = await db().payment.findUnique({ where: { merchantId_mode_merchantPaymentId: { merchantId, mode, merchantPaymentId } }, select: { id: true } });
  return taken !== null;
}

function isUniqueViolation(error: unknown): boolean {
  return error instanceof Prisma.PrismaClientKnownRequestError && error.code === "P2002";
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
  requested: AcquirerName | undefined,
  sourceAccountId: string | null,
): Promise<RoutedAccount[]> {
  const accounts = await assertRoutable({
    merchantId,
    mode,
    currency,
    requested: requested ? [requested] : undefined,
    rule: 1,
    purpose: "payout",
  });
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
      storedCard: { select: STORED_CARD_SELECT },
    },
  });
  if (!source.storedCard) throw invalidParameter("paymentid", "the payment has no stored card data to pay out to");
  const card = openStoredCard(source.storedCard);
  // Live money never goes to a published test card (one stored before test mode existed).
  if (isTestCardInLive(mode, card)) {
    throw invalidParameter("paymentid", "the payment's card is a test card number: live payouts never go to test cards");
  }
  const accounts = await accountOrder(merchantId, mode, input.currency, input.processor, source.acquirerAccountId);
  if (input.newmerchantpaymentid && (await payoutReferenceTaken(merchantId, mode, input.newmerchantpaymentid))) throw payoutReferenceUsed();
  // The final result has to reach the merchant (it may come after the answer): resolved once, here.
  const notificationUrl = await resolveNotificationUrl({ merchantId, mode, requestedUrl: input.notificationurl, purpose: "default" });
  if (!notificationUrl) throw invalidParameter("notificationurl", "is required: no notification address is configured for this merchant");

  const paymentId = newId();
  const payment = {
    id: paymentId,
    merchantId,
    mode,
    parentPaymentId: source.id,
    storedCardId: source.storedCard.id,
    status: "PENDING" as const,
    amount: input.amount,
    currency: input.currency,
    paymentType: "payout",
    textOnStatement: input.textonstatement ?? null,
    note: input.note ?? null,
    tags: input.tags ?? null,
    // A payout request names the cardholder at its top level, without an IP address.
    ...customerColumns({ email: input.email, firstname: input.firstname, surename: input.surename }),
    // The request's responseid on the payout payment too: what the request did is found by it.
    requestResponseId: responseId,
    merchantPaymentId: input.newmerchantpaymentid ?? null,
  };

  // Once the payout is recorded (and money may move), a database overload is no longer "nothing
  // was done", so it must not reach the merchant API's wrapper as a retryable 503 (lib/errors.ts).
  let recorded = false;
  try {
    let notificationId: string | null = null;
    await tryAcquirerAccounts({
      accounts,
      // Anything thrown mid-call may have paid the money out: its outcome is unknown, never "failed".
      onError: "indeterminate",
      faults: { afterCall: "payout.after-call" },
      begin: async ({ processor, accountId }, index) => {
        const operationId = newId();
        const operation = {
          id: operationId,
          paymentId,
          type: "payout" as const,
          amount: input.amount,
          currency: input.currency,
          processor,
          acquirerAccountId: accountId,
          routingAttempt: index + 1,
          responseId,
          notificationUrl,
          note: input.note ?? null,
          tags: input.tags ?? null,
          // Unknown until the answer is recorded: a crash mid-call leaves it for the reconciliation.
          outcomeUnknownSince: new Date(),
        };
        // The source card and the merchant's payout limits are checked, and the payout payment and
        // its first attempt recorded, in one transaction under a lock, before any money moves
        // (./check-payout-allowed.ts); never the payment without its attempt.
        if (index === 0) {
          try {
            await db().$transaction(async (tx) => {
              await checkPayoutAllowed({ tx, merchantId, mode, source, amount: BigInt(input.amount), currency: input.currency });
              await tx.payment.create({ data: { ...payment, processor, acquirerAccountId: accountId }, select: { id: true } });
              await tx.operation.create({ data: operation, select: { id: true } });
            });
          } catch (error) {
            // A concurrent payout took the same reference first (the unique index): refused, nothing done.
            if (input.newmerchantpaymentid && isUniqueViolation(error)) throw payoutReferenceUsed();
            throw error;
          }
          recorded = true;
        } else {
          await db().$transaction([
            db().operation.create({ data: operation, select: { id: true } }),
            db().payment.update({ where: { id: paymentId }, data: { processor, acquirerAccountId: accountId }, select: { id: true } }),
          ]);
        }
        return operationId;
      },
      call: ({ connector, descriptor }, { operationId }) =>
        connector.payout({
          operationId,
          paymentId,
          card,
          amount: input.amount,
          currency: input.currency,
          textOnStatement: input.textonstatement,
          descriptor,
          // The recipient, as the payout names them (Clearhaus card[name], Finaro c1/c3/j5/j13).
          customer: { email: input.email, firstName: input.firstname, surname: input.surename },
        }),
      conclude: async ({ operationId, index }, result) => {
        if (isOutcomeUnknown(result)) {
          // A time-out or 5xx may have paid the money out: never try the next processor. Looked up at
          // once (a found answer is recorded, with its notification, by the look-up); when still
          // unknown the payout stays pending for the reconciliation, which notifies its result.
          const settled = await holdUnknownOutcome({ operationId, result });
          if (settled === "approved" || settled === "declined" || settled === "failed") {
            notificationId = await notifyOperationResult({ operationId });
          }
          return "stop";
        }
        // Only a failure that certainly did nothing may go on to the next processor; that attempt is
        // closed without touching the payout payment or notifying (the next attempt answers).
        if (result.status !== "approved" && result.failure === "retryable" && index < accounts.length - 1) {
          await db().operation.updateMany({ where: { id: operationId, status: "pending" }, data: operationResultFields(result) });
          return "next";
        }
        // The payout's final state and its notification row commit together (outbox); sent after.
        notificationId = (await recordPayoutResult({ operationId, result })) || null;
        return "stop";
      },
    });
    if (notificationId) await dispatchNotification(notificationId);
    return (await payoutAnswer(responseId))!;
  } catch (error) {
    if (recorded && isDatabaseOverload(error))
      throw new Error("payout: the database was not reachable in time after the payout was recorded", { cause: error });
    throw error;
  }
}
