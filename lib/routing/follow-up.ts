// Follow-up operations (capture, refund, void) go to the acquirer account that authorized the
// payment, under its credentials, even when it has been edited or disabled since (an authorization
// made on one account cannot be captured on another), referring to the authorization by the
// acquirer's own id. The operation records the account it went out under.
import { db, Prisma } from "../db";
import {
  AcquirerAccountMissingError,
  accountConnector,
  accountDoesNotExist,
  SEALED_ACCOUNT_JSON_OF_A,
  type SealedAccountRow,
} from "./accounts/account-connector";
import { ProcessorNotConfiguredError } from "../acquirers/registry";
import { RESPONSE_CODES, type FollowUpOperation, type ProcessorResult, type ReferencedOperation } from "../acquirers/contract";
import type { AcquirerName } from "../acquirers/names";

export interface FollowUpPayment {
  id: string;
  currency: string;
  processor: AcquirerName | null;
}

/** The authorization a follow-up names, with the account it went out under (read by runFollowUp, or by its caller's claim). */
export interface FollowUpAuthorization {
  id: string;
  processorReference: string | null;
  authorizationCode: string | null;
  accountId: string | null;
  customerIpAddress: string | null;
  account: SealedAccountRow | null;
  /** Whether the statement that read it also named it on the follow-up (acquirerAccountId, referencedOperationId). */
  named: boolean;
}

/**
 * The latest approved authorization of payment `paymentId` at `processor`, what the call needs of
 * the payment, and the row of the account it went out under, as a CTE body of columns "id",
 * "processorReference", "authorizationCode", "accountId", "customerIpAddress", "account" and
 * "callable" (an account row that needs no credentials). A CTE of that name "x" is nameable
 * (NAMEABLE_X) when the refusals SQL can see cannot apply: then a capture or void records it on the
 * operation in the same statement (decision 0195).
 */
export function latestAuthorization(paymentId: Prisma.Sql, processor: Prisma.Sql): Prisma.Sql {
  return Prisma.sql`
      SELECT o."id", o."processorReference", o."authorizationCode",
             COALESCE(o."acquirerAccountId", p."acquirerAccountId") AS "accountId", p."customerIpAddress",
             ${SEALED_ACCOUNT_JSON_OF_A} AS "account", a."id" IS NOT NULL AND a."credentialsNeeded" IS NULL AS "callable"
      FROM "Operation" o JOIN "Payment" p ON p."id" = o."paymentId"
      LEFT JOIN "AcquirerAccount" a ON a."id" = COALESCE(o."acquirerAccountId", p."acquirerAccountId")
      WHERE o."paymentId" = ${paymentId} AND o."type" = 'authorize' AND o."status" = 'approved'
        AND o."processor" = ${processor}
      ORDER BY o."createdAt" DESC
      LIMIT 1`;
}

/** latestAuthorization's row `x` may be named on a capture or void before the call. */
export const NAMEABLE_X = Prisma.sql`(x."callable" AND x."processorReference" IS NOT NULL)`;

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
  /** The authorization as the caller's claim read (and named) it: runFollowUp then reads nothing before the call. */
  authorization?: FollowUpAuthorization | null;
}

/** Calls the authorizing processor; never throws for acquirer answers, network failures or missing configuration. */
export async function runFollowUp({
  payment,
  operation,
  amount,
  operationId,
  textOnStatement,
  timeoutMs,
  authorization: given,
}: RunFollowUpOptions): Promise<ProcessorResult> {
  if (!payment.processor) {
    return {
      status: "failed",
      failure: "declined",
      responsecode: RESPONSE_CODES.invalidTransaction,
      message: "the payment has no authorizing processor",
    };
  }
  // The latest approved authorization at that processor, what the call needs of the payment, and
  // the row of the account it went out under, in one statement (four through the ORM: the relation
  // load and the account's read, issue 37), unless the caller's claim read it. A capture or void also
  // records there, before the call, what it names at the acquirer: the account and the
  // authorization, written only when the refusals below that SQL can see cannot apply (an
  // authorization with its reference, an account row that needs no credentials). Only stored
  // credentials that can no longer be opened are refused after the write: the operation then names
  // the account it would have gone out under (decision 0195).
  const authorization = given !== undefined ? given : await readAndName(payment.id, payment.processor, operation, operationId);
  if (!authorization?.processorReference) {
    return {
      status: "failed",
      failure: "declined",
      responsecode: RESPONSE_CODES.invalidTransaction,
      message: `no approved authorization at ${payment.processor} to refer to`,
    };
  }
  const reference = {
    operationId,
    amount,
    currency: payment.currency,
    authorizationReference: authorization.processorReference,
    authorizationCode: authorization.authorizationCode ?? undefined,
    // What the authorization was sent with (Finaro names it as g4).
    authorizationOperationId: authorization.id,
    customerIp: authorization.customerIpAddress ?? undefined,
  };
  const accountId = authorization.accountId;
  if (!accountId) {
    // Never guessed: another account of the same processor would be another merchant account.
    return {
      status: "failed",
      failure: "declined",
      responsecode: RESPONSE_CODES.invalidTransaction,
      message: `no acquirer account is recorded for the authorization at ${payment.processor} (see accounts import-env, docs/operations.md)`,
    };
  }
  let connector;
  try {
    if (!authorization.account) throw accountDoesNotExist(accountId);
    connector = accountConnector(authorization.account, { timeoutMs });
  } catch (error) {
    if (error instanceof ProcessorNotConfiguredError || error instanceof AcquirerAccountMissingError)
      return { status: "failed", failure: "retryable", responsecode: RESPONSE_CODES.unavailable, message: error.message };
    throw error;
  }
  const capture = operation === "refund" ? await captureToRefund(payment, operationId) : undefined;
  // Recorded before the call: what this operation names at the acquirer (a refund's capture was
  // named when its run claimed it, under the payment's lock; a capture's or void's by the read above).
  if (!authorization.named) {
    await db().operation.updateMany({
      where: { id: operationId },
      data: { acquirerAccountId: accountId, referencedOperationId: capture?.chosen?.operationId ?? authorization.id },
    });
  }
  switch (operation) {
    case "capture":
      return connector.capture({ ...reference, textOnStatement });
    case "refund":
      return connector.refund({
        ...reference,
        captureReference: (capture?.chosen ?? capture?.latest)?.processorReference,
        capture: capture?.chosen,
        textOnStatement,
      });
    case "void":
      return connector.void(reference);
  }
}

/** runFollowUp's own read of the authorization, naming it on a capture or void in the same statement. */
async function readAndName(paymentId: string, processor: AcquirerName, operation: FollowUpOperation, operationId: string): Promise<FollowUpAuthorization | null> {
  const [authorization] = await db().$queryRaw<FollowUpAuthorization[]>`
    WITH "authorization" AS (${latestAuthorization(Prisma.sql`${paymentId}`, Prisma.sql`${processor}::"Processor"`)}),
    "named" AS (
      UPDATE "Operation" f SET "acquirerAccountId" = x."accountId", "referencedOperationId" = x."id"
      FROM "authorization" x
      WHERE f."id" = ${operationId} AND ${operation !== "refund"} AND ${NAMEABLE_X}
      RETURNING f."id"
    )
    SELECT x."id", x."processorReference", x."authorizationCode", x."accountId", x."customerIpAddress", x."account",
           EXISTS (SELECT 1 FROM "named") AS "named"
    FROM "authorization" x`;
  return authorization ?? null;
}

/**
 * The capture a refund names, for acquirers whose refunds give back one capture (Finaro): the one its
 * claim chose under the payment's lock (lib/payments/choose-refund-capture.ts), written on the refund
 * as `referencedOperationId`. None when no single capture could take it (the refund is then refused
 * before it is sent, docs/decisions/0146-a-refund-names-its-capture-when-it-is-claimed.md); `latest` is
 * the latest capture either way.
 */
async function captureToRefund(payment: FollowUpPayment, refundId: string): Promise<{ chosen?: ReferencedOperation; latest?: ReferencedOperation }> {
  const [refund, captures] = await Promise.all([
    // No row when the caller runs the refund without a claim (a test, an operator's look-up): then
    // no capture was chosen and the latest one is named.
    db().operation.findUnique({ where: { id: refundId }, select: { referencedOperationId: true } }),
    db().operation.findMany({
      where: {
        paymentId: payment.id,
        type: "capture",
        status: "approved",
        processor: payment.processor,
        processorReference: { not: null },
      },
      orderBy: [{ createdAt: "desc" }, { id: "desc" }],
      select: { id: true, processorReference: true, authorizationCode: true },
    }),
  ]);
  const asReference = (capture: (typeof captures)[number]): ReferencedOperation => ({
    operationId: capture.id,
    processorReference: capture.processorReference!,
    authorizationCode: capture.authorizationCode ?? undefined,
  });
  const chosen = captures.find((capture) => capture.id === refund?.referencedOperationId);
  return { chosen: chosen && asReference(chosen), latest: captures[0] && asReference(captures[0]) };
}
