// The JSON bodies of the notifications of spec 6.2 to 6.6, built from plain data. Their shapes are the
// schemas of lib/validation/notifications.ts (also published in the OpenAPI document): field names
// and types are the spec's. Every field is always present; an unknown value is "" so receivers see one shape.
import type { z } from "zod";
import type { CardImage } from "./card-image";
import type {
  cardImageRecordSchema,
  completionNotificationSchema,
  disputeNotificationSchema,
  lifecycleNotificationSchema,
  mitNotificationSchema,
  operationNotificationSchema,
  operationRecordSchema,
  paymentRecordSchema,
} from "../validation/notifications";
import { truncateCardNumber } from "../cards/truncate-card-number";
import { eciValue, formatExpiry, formatUtcTimestamp } from "./format";

export type CompletionStatus = CompletionNotificationBody["status"];

/**
 * A notification body as built here: `mode` is added when it is stored, from the notification's
 * own mode (lib/notifications/enqueue-notification.ts), so no builder can get it wrong.
 */
type Built<T> = Omit<T, "mode">;

/** 6.2: the end of a cardholder-initiated payment. */
export type CompletionNotificationBody = Built<z.infer<typeof completionNotificationSchema>>;

export interface CardFacts {
  bin: string;
  last4: string;
  expMonth: number;
  expYear: number;
  scheme: string;
  funding: string | null;
  segment: string | null;
  issuer: string | null;
  panType: "fpan" | "dpan";
  par: string | null;
}

export function completionNotificationBody(input: {
  sessionId: string;
  paymentId: string | null;
  merchantPaymentId: string | null;
  newMerchantPaymentId: string | null;
  status: CompletionStatus;
  responseCode: string | null;
  authorizationCode: string | null;
  processor: string | null;
  card: Pick<CardFacts, "bin" | "last4" | "par"> | null;
  eci: string | null;
  merchantData: string | null;
}): CompletionNotificationBody {
  return {
    sessionid: input.sessionId,
    paymentid: input.paymentId ?? "",
    merchantpaymentid: input.merchantPaymentId ?? "",
    newmerchantpaymentid: input.newMerchantPaymentId ?? "",
    status: input.status,
    responsecode: input.responseCode ?? "",
    authorizationcode: input.authorizationCode ?? "",
    processor: input.processor ?? "",
    tcardnumber: input.card ? truncateCardNumber(input.card) : "",
    eci: eciValue(input.eci),
    merchantdata: input.merchantData ?? "",
    par: input.card?.par ?? "",
  };
}

export type OperationOutcome = OperationNotificationBody["status"];

/** 6.3: the result of a merchant-initiated authorization. */
export type MitNotificationBody = Built<z.infer<typeof mitNotificationSchema>>;

export function mitNotificationBody(input: {
  responseId: string;
  paymentId: string;
  newMerchantPaymentId: string | null;
  responseCode: string;
  authorizationCode: string | null;
  status: OperationOutcome;
  processor: string | null;
  eci: string | null;
  par: string | null;
}): MitNotificationBody {
  return {
    responseid: input.responseId,
    paymentid: input.paymentId,
    newmerchantpaymentid: input.newMerchantPaymentId ?? "",
    responsecode: input.responseCode,
    authorizationcode: input.authorizationCode ?? "",
    status: input.status,
    processor: input.processor ?? "",
    eci: eciValue(input.eci),
    par: input.par ?? "",
  };
}

/** 6.4: the result of a capture, refund or void. */
export type OperationNotificationBody = Built<z.infer<typeof operationNotificationSchema>>;

export function operationNotificationBody(input: {
  responseId: string;
  paymentId: string;
  merchantPaymentId: string | null;
  responseCode: string;
  authorizationCode: string | null;
  status: OperationOutcome;
}): OperationNotificationBody {
  return {
    responseid: input.responseId,
    paymentid: input.paymentId,
    merchantpaymentid: input.merchantPaymentId ?? "",
    responsecode: input.responseCode,
    authorizationcode: input.authorizationCode ?? "",
    status: input.status,
  };
}

/** 2.3: one operation of a payment record. */
export type OperationRecord = z.infer<typeof operationRecordSchema>;

/** 2.4 */
export type CardImageRecord = z.infer<typeof cardImageRecordSchema>;

/** 2.2 with the lookup's responseid (6.5). */
export type PaymentRecordBody = z.infer<typeof paymentRecordSchema>;

export interface PaymentRecordInput {
  merchantId: string;
  /** The payment's mode: the record says it (an answer of sync=1 as well as the notification). */
  mode: "test" | "live";
  id: string;
  merchantPaymentId: string | null;
  parentPaymentId: string | null;
  amount: bigint;
  balance: bigint;
  currency: string;
  reference: string | null;
  paymentType: string;
  processor: string | null;
  textOnStatement: string | null;
  note: string | null;
  tags: string | null;
  sca: string | null;
  customerEmail: string | null;
  customerFirstName: string | null;
  customerSurname: string | null;
  customerIpAddress: string | null;
  card: CardFacts | null;
  operations: Array<{
    id: string;
    type: string;
    paymentType: string | null;
    amount: bigint;
    currency: string;
    createdAt: Date;
    note: string | null;
    responseCode: string | null;
    authorizationCode: string | null;
    status: string;
  }>;
}

export function paymentRecordBody(input: PaymentRecordInput, options: { responseId: string; gfx?: CardImage }): PaymentRecordBody {
  const card = input.card;
  const body: Built<PaymentRecordBody> = {
    merchantid: input.merchantId,
    paymentid: input.id,
    merchantpaymentid: input.merchantPaymentId ?? "",
    parentpaymentid: input.parentPaymentId ?? "",
    responseid: options.responseId,
    amount: Number(input.amount),
    balance: Number(input.balance),
    currency: input.currency,
    reference: input.reference ?? "",
    paymenttype: input.paymentType,
    processor: input.processor ?? "",
    textonstatement: input.textOnStatement ?? "",
    note: input.note ?? "",
    tags: input.tags ?? "",
    sca: input.sca ?? "",
    scheme: card?.scheme ?? "",
    segment: card?.segment ?? "",
    Issuer: card?.issuer ?? "",
    "Expiry date": card ? formatExpiry(card.expMonth, card.expYear) : "",
    last4: card?.last4 ?? "",
    funding: card?.funding ?? "",
    pantype: card?.panType ?? "",
    customer: {
      email: input.customerEmail ?? "",
      firstname: input.customerFirstName ?? "",
      surename: input.customerSurname ?? "",
      ipaddress: input.customerIpAddress ?? "",
    },
    operations: input.operations.map((operation) => ({
      operationid: operation.id,
      operationtype: operation.type,
      ...(operation.type === "authorize" ? { paymenttype: operation.paymentType ?? input.paymentType } : {}),
      amount: operation.amount.toString(),
      currency: operation.currency,
      created: formatUtcTimestamp(operation.createdAt),
      note: operation.note ?? "",
      responsecode: operation.responseCode ?? "",
      authorizationcode: operation.authorizationCode ?? "",
      status: operation.status,
    })),
  };
  if (options.gfx && card) {
    body.gfx = { ...options.gfx, expmonth: card.expMonth, expyear: card.expYear, last4: card.last4, issuer: card.issuer ?? "" };
  }
  // Last, as in every notification: the spec's members come first.
  return { ...body, mode: input.mode };
}

/** 6.6 */
export type LifecycleNotificationBody = Built<z.infer<typeof lifecycleNotificationSchema>>;

export function lifecycleNotificationBody(input: {
  paymentId: string;
  merchantPaymentId: string | null;
  change: LifecycleNotificationBody["change"];
}): LifecycleNotificationBody {
  return { paymentid: input.paymentId, merchantpaymentid: input.merchantPaymentId ?? "", change: input.change };
}

/** Beyond the spec (issue 40): a dispute opened, changed, won or lost. */
export type DisputeNotificationBody = Built<z.infer<typeof disputeNotificationSchema>>;

/** A dispute as the merchant sees it: the `dispute` notification's facts but its event (also the merchant API's dispute resource). */
export interface DisputeFacts {
  disputeId: string;
  /** Null: the acquirer's transaction matches none of our operations (shown as unknown). */
  paymentId: string | null;
  /** The payment's merchantpaymentid, when it has one. */
  merchantPaymentId: string | null;
  operationId: string | null;
  processor: string;
  kind: DisputeNotificationBody["type"];
  status: DisputeNotificationBody["status"];
  reasonCode: string;
  reason: string;
  amount: bigint;
  currency: string;
  partial: boolean;
  /** Calendar dates, YYYY-MM-DD. */
  openedOn: string;
  dueOn: string | null;
  expiresOn: string | null;
  answers: readonly DisputeNotificationBody["answers"][number][];
}

/** The `dispute` notification's fields but its event, in its wire names. */
export function disputeFields(input: DisputeFacts): Omit<DisputeNotificationBody, "event"> {
  return {
    disputeid: input.disputeId,
    paymentid: input.paymentId ?? "",
    merchantpaymentid: input.merchantPaymentId ?? "",
    operationid: input.operationId ?? "",
    processor: input.processor,
    type: input.kind,
    status: input.status,
    reasoncode: input.reasonCode,
    reason: input.reason,
    amount: input.amount.toString(),
    currency: input.currency,
    partial: input.partial,
    openedon: input.openedOn,
    dueon: input.dueOn ?? "",
    expireson: input.expiresOn ?? "",
    answers: [...input.answers],
  };
}

export function disputeNotificationBody(input: DisputeFacts & { event: DisputeNotificationBody["event"] }): DisputeNotificationBody {
  const { disputeid, ...fields } = disputeFields(input);
  return { disputeid, event: input.event, ...fields };
}
