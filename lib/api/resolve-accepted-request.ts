// What an asynchronous request (capture, refund, void, MIT) that held an Idempotency-Key and then
// died or failed left behind, found by its responseid: when its operation or payment exists it
// was accepted, and its answer is the responseid (the notification follows); when nothing exists,
// nothing was done (the key is written in the work's own transaction, so this cannot be a half).
import { db } from "../db";
import type { ResolvedAnswer } from "./idempotency";

export async function resolveAcceptedRequest(responseId: string): Promise<ResolvedAnswer | undefined> {
  const accepted =
    (await db().operation.findFirst({ where: { responseId }, select: { id: true } })) ??
    (await db().payment.findFirst({ where: { requestResponseId: responseId }, select: { id: true } }));
  if (!accepted) return undefined;
  return { status: 200, body: JSON.stringify({ responseid: responseId }), final: true };
}
