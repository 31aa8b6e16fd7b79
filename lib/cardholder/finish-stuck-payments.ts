// One round of the job lib/jobs/finish-stuck-payments.ts as a plain service (the job runs each
// piece as its own step; tests and the operator's settle tool call these directly): pending
// authorization attempts looked up when due and their payment finished by its owner, windows whose
// goPay() request died or handed over, MITs whose run died before their result.
import { db } from "../db";
import { findDueAuthorizationAttempts, findUnfinishedMits } from "../payments/find-stuck-payments";
import { finishMitAuthorization } from "../payments/finish-mit-authorization";
import { settleUnknownOperation } from "../payments/settle-unknown-operation";
import { findUnfinishedSessions, finishSessionPayment } from "./finish-session-payment";

/** The payment's owner finishes it: its MIT, or the window it belongs to. */
export async function finishPaymentOf(paymentId: string, now = new Date()): Promise<string> {
  const mit = await finishMitAuthorization({ paymentId });
  if (mit !== "not_mit") return `mit ${mit}`;
  const session = await db().paymentSession.findUnique({ where: { paymentId }, select: { id: true } });
  return session ? `session ${await finishSessionPayment({ sessionId: session.id, now })}` : "no owner";
}

/** Settles one due attempt and finishes its payment. */
export async function finishAttempt({ operationId, paymentId, now = new Date() }: { operationId: string; paymentId: string; now?: Date }) {
  const settled = await settleUnknownOperation({ operationId, now });
  return `${settled}; ${await finishPaymentOf(paymentId, now)}`;
}

export async function finishStuckPayments({ now = new Date() }: { now?: Date } = {}): Promise<Record<string, string>> {
  const done: Record<string, string> = {};
  for (const attempt of await findDueAuthorizationAttempts({ now })) {
    done[attempt.id] = await finishAttempt({ operationId: attempt.id, paymentId: attempt.paymentId, now });
  }
  for (const sessionId of await findUnfinishedSessions({ now })) done[sessionId] = await finishSessionPayment({ sessionId, now });
  for (const paymentId of await findUnfinishedMits({ now })) done[paymentId] = await finishMitAuthorization({ paymentId });
  return done;
}

/** After an operator settled an authorization attempt: its payment's owner finishes the payment now. */
export async function finishAfterOperatorSettlement({ type, paymentId }: { type: string; paymentId: string }): Promise<string | undefined> {
  return type === "authorize" ? finishPaymentOf(paymentId) : undefined;
}
