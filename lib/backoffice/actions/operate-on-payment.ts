// Capture, refund and void from the payment page: the same use cases as POST /api/{paymentid}/...,
// so the amount rules, the processor call and the merchant notification are exactly the API's.
import { z } from "zod";
import { assertCan, type Actor } from "../../auth/actor";
import { db, type Tx } from "../../db";
import { newId } from "../../ids";
import {
  bindIdempotentAnswer,
  claimIdempotencyKey,
  keepIdempotencyKeyAfterFailure,
  releaseIdempotencyKey,
  requestFingerprint,
} from "../../api/idempotency";
import { resolveAcceptedRequest } from "../../api/resolve-accepted-request";
import { requestFollowUp } from "../../payments/request-follow-up";
import { currencyExponent, isCurrencyCode } from "../../validation/currency";
import { NotFoundError } from "../../auth/actor";
import { recordAudit } from "../../audit/audit";
import { ApiError } from "../../errors";
import { UserFacingError } from "../action-result";
import { describeOperationError } from "../describe-operation-error";
import { REFUND_REASONS } from "../refund-reasons";
import { FOLLOW_UP_TYPES } from "../../payments/follow-ups/kinds";

export const operateOnPaymentInput = z.object({
  paymentId: z.string().regex(/^[A-Za-z0-9]{1,32}$/),
  operation: z.enum(FOLLOW_UP_TYPES),
  /** Major units as typed ("12.50"); empty means the whole amount the rules allow. */
  amount: z
    .string()
    .trim()
    .optional()
    .transform((value) => (value ? value : undefined))
    .pipe(z.string().regex(/^\d{1,12}(\.\d{1,4})?$/, "Enter an amount such as 12.50, or leave it empty for the full amount").optional()),
  note: z.string().trim().max(200, "Use at most 200 characters").optional(),
  /** A refund's reason (lib/backoffice/refund-reasons.ts); empty means none given. */
  reason: z.preprocess((value) => (value === "" ? undefined : value), z.enum(REFUND_REASONS, { error: "Choose a reason from the list" }).optional()),
  /**
   * Made by the form when it is shown (one per operation): a double submit, a retry after a lost
   * answer or a second tab with the same form is answered with the first request's result, never a
   * second capture, refund or void (the merchant API's Idempotency-Key, lib/api/idempotency.ts).
   */
  idempotencyKey: z
    .string()
    .regex(/^[\x21-\x7e]{8,100}$/)
    .optional(),
});

/** "12.5" in a currency with exponent 2 is 1250 minor units; more decimals than the currency has are refused. */
export function toMinorUnits(major: string, currency: string): bigint {
  const exponent = isCurrencyCode(currency) ? currencyExponent(currency) : 2;
  const [whole, fraction = ""] = major.split(".");
  if (fraction.length > exponent) throw new z.ZodError([{ code: "custom", path: ["amount"], message: `${currency} has ${exponent} decimals`, input: major }]);
  return BigInt(whole!) * 10n ** BigInt(exponent) + BigInt(fraction.padEnd(exponent, "0") || "0");
}

export async function operateOnPayment({ actor, input }: { actor: Actor; input: unknown }) {
  assertCan(actor, "payments:write");
  const { paymentId, operation, amount, note, reason, idempotencyKey } = operateOnPaymentInput.parse(input);
  const payment = await db().payment.findFirst({
    where: { id: paymentId, merchantId: actor.merchantId, mode: actor.mode },
    select: { id: true, currency: true },
  });
  if (!payment) throw new NotFoundError("Payment");
  const minor = amount === undefined ? undefined : toMinorUnits(amount, payment.currency);
  const responseId = newId();
  // The key of the back office lives beside the merchant's own keys, under a prefix they cannot send.
  const hold = idempotencyKey ? { merchantId: actor.merchantId, key: `backoffice:${idempotencyKey}`, responseId } : undefined;
  if (hold) {
    const replay = await claimIdempotencyKey({
      ...hold,
      fingerprint: requestFingerprint("POST", `backoffice/payments/${payment.id}/${operation}`, {
        amount: minor?.toString() ?? null,
        note: note ?? null,
        reason: reason ?? null,
      }),
      resolveHolderWork: resolveAcceptedRequest,
    });
    // The same form sent again: its first answer, nothing done twice (and audited once).
    if (replay) return JSON.parse(replay.body) as { responseid: string };
  }
  let result: { responseid: string };
  try {
    const request = {
      merchantId: actor.merchantId,
      mode: actor.mode,
      paymentRef: payment.id,
      responseId,
      input: { amount: minor, note: note || undefined },
      bindAnswer: hold ? (tx: Tx, body: Record<string, unknown>) => bindIdempotentAnswer(tx, hold, { status: 200, body: JSON.stringify(body) }) : undefined,
    };
    // The merchant API's own use case for the kind; only a refund carries a reason.
    result = await requestFollowUp({ ...request, type: operation, reason: operation === "refund" ? reason : undefined });
  } catch (error) {
    if (hold) await (error instanceof ApiError ? releaseIdempotencyKey(hold) : keepIdempotencyKeyAfterFailure(hold)).catch(() => undefined);
    // The API's refusal, in a sentence with the field and the place to fix it (describe-operation-error.ts).
    if (error instanceof ApiError) {
      const { message, field, link } = describeOperationError(error, { operation, currency: payment.currency });
      throw new UserFacingError(message, { field, link });
    }
    throw error;
  }
  // The amount the rules decided (an empty amount means all that is left), with its currency, so the
  // audit log can show it in major units; and a refund's reason.
  const requested = await db().operation.findFirst({ where: { paymentId: payment.id, responseId: result.responseid }, select: { amount: true } });
  await db().$transaction((tx) =>
    recordAudit(tx, {
      actor,
      action: `payment.${operation}_requested`,
      target: payment.id,
      details: {
        responseid: result.responseid,
        amount: (requested?.amount ?? minor)?.toString() ?? "full",
        currency: payment.currency,
        mode: actor.mode,
        ...(operation === "refund" && reason ? { reason } : {}),
      },
    }),
  );
  return result;
}

