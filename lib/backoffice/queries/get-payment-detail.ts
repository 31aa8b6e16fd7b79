// Everything the payment page shows, for one payment of one merchant in the mode the back office
// shows (the other mode's payment is not found). Card facts come from StoredCard without its
// encrypted PAN: the back office never decrypts card numbers.
import { db, ONE_SNAPSHOT } from "../../db";
import type { Mode } from "../../mode";
import { NotFoundError } from "../../auth/actor";
import { deriveDisplayState } from "../../payments/derive-display-state";
import { MIT_STOP_SELECT } from "../../payments/stop-merchant-initiated-payments";
import { DELIVERY_COLUMNS } from "../delivery-state";
import { STORED_CARD_FACTS_SELECT } from "../../cards/stored-card";

const RELATED = { id: true, merchantPaymentId: true, paymentType: true, status: true, amount: true, currency: true, createdAt: true } as const;

export async function getPaymentDetailOrThrow({ merchantId, mode, paymentId }: { merchantId: string; mode: Mode; paymentId: string }) {
  if (!/^[A-Za-z0-9]{1,32}$/.test(paymentId)) throw new NotFoundError("Payment");
  // Prisma reads the payment and each of its relations in statements of their own; in one snapshot a
  // follow-up's answer recorded between them (the operation approved, the payment's amounts updated,
  // in one commit) is seen whole or not at all. Without it the page could show a refund approved with the amounts from before it, and stop
  // following the payment because nothing is pending any more.
  const payment = await db().$transaction((tx) => tx.payment.findFirst({
    where: { id: paymentId, merchantId, mode },
    select: {
      id: true,
      merchantId: true,
      mode: true,
      merchantPaymentId: true,
      parentPaymentId: true,
      status: true,
      amount: true,
      currency: true,
      authorizedAmount: true,
      capturedAmount: true,
      refundedAmount: true,
      balance: true,
      reference: true,
      paymentType: true,
      processor: true,
      acquirerAccount: { select: { name: true } },
      textOnStatement: true,
      note: true,
      tags: true,
      sca: true,
      eci: true,
      routingStopped: true,
      instantCapture: true,
      customerEmail: true,
      customerFirstName: true,
      customerSurname: true,
      customerIpAddress: true,
      createdAt: true,
      updatedAt: true,
      storedCard: { select: { ...STORED_CARD_FACTS_SELECT, country: true, ...MIT_STOP_SELECT } },
      operations: {
        orderBy: [{ createdAt: "asc" }, { id: "asc" }],
        select: {
          id: true,
          type: true,
          paymentType: true,
          amount: true,
          currency: true,
          status: true,
          processor: true,
          acquirerAccount: { select: { name: true } },
          routingAttempt: true,
          responseCode: true,
          authorizationCode: true,
          eci: true,
          errorMessage: true,
          outcomeUnknownSince: true,
          operatorAlertedAt: true,
          lateAnswer: true,
          lateAnswerAt: true,
          note: true,
          reason: true,
          responseId: true,
          createdAt: true,
          completedAt: true,
        },
      },
      notifications: {
        orderBy: { createdAt: "desc" },
        take: 100,
        select: {
          id: true,
          kind: true,
          ...DELIVERY_COLUMNS,
          // In the order they were made: a resend (numbered after the schedule) may come before a scheduled retry.
          attempts: {
            orderBy: [{ startedAt: "asc" }, { attemptNumber: "asc" }],
            select: { id: true, attemptNumber: true, resend: true, startedAt: true, durationMs: true, statusCode: true, error: true, responseBody: true },
          },
        },
      },
      authentications: {
        orderBy: { createdAt: "asc" },
        select: {
          id: true,
          messageVersion: true,
          transStatus: true,
          transStatusReason: true,
          eci: true,
          challengeRequired: true,
          challengeIndicator: true,
          acsChallengeMandated: true,
          state: true,
          reason: true,
          acquirerAccountId: true,
          createdAt: true,
        },
      },
      session: { select: { id: true, hostedIntegration: { select: { hostedId: true, name: true } }, set3ds: true } },
      // Related payments: the one whose card this one used (an MIT's or a payout's), and those that
      // used this one's card since, newest first (the page links each by its order number).
      parent: { select: RELATED },
      children: { select: RELATED, orderBy: [{ createdAt: "desc" }, { id: "desc" }], take: 50 },
    },
  }), ONE_SNAPSHOT);
  if (!payment) throw new NotFoundError("Payment");
  const displayState = deriveDisplayState({ ...payment, authorizationAttempted: payment.operations.some((operation) => operation.type === "authorize") });
  // Each authentication names the acquirer account its AReq was for (decision 0192): its processor and name.
  const accountIds = [...new Set(payment.authentications.map((auth) => auth.acquirerAccountId).filter((id): id is string => Boolean(id)))];
  const accounts = new Map(
    (await db().acquirerAccount.findMany({ where: { id: { in: accountIds }, merchantId }, select: { id: true, processor: true, name: true } })).map(
      (account) => [account.id, account],
    ),
  );
  const authentications = payment.authentications.map((auth) => ({
    ...auth,
    account: auth.acquirerAccountId ? (accounts.get(auth.acquirerAccountId) ?? null) : null,
  }));
  return { ...payment, authentications, displayState };
}

export type PaymentDetail = Awaited<ReturnType<typeof getPaymentDetailOrThrow>>;
