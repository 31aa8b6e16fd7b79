// POST /api/initdynamic (spec 4.1): opens a cardholder payment window and answers the hosted-field
// addresses of spec 2.1. The payment itself is created later by goPay() (the cardholder flow).
import { db, hotSql, Prisma, type Tx } from "../db";
import { config } from "../env";
import { invalidParameter } from "../errors";
import { newId } from "../ids";
import type { InitSessionRequest } from "../validation/init-session";
import { getPaymentOrThrow } from "./get-payment-or-throw";
import { resolveNotificationUrl } from "../notifications/resolve-notification-url";
import { assertRoutable } from "../routing/routing";
import type { Mode } from "../mode";
import { customerColumns } from "./customer-columns";

export interface InitSessionOptions {
  merchantId: string;
  /** The API key's mode: the session, its payment, card and notifications are of this mode. */
  mode: Mode;
  input: InitSessionRequest;
  now?: Date;
  /** Stores the answer under the request's Idempotency-Key in the transaction that creates the session. */
  bindAnswer?: (tx: Tx, body: Record<string, unknown>) => Promise<void>;
}

/** The response body of spec 4.1 (the session fields of 2.1). */
export interface InitSessionResponse {
  merchantid: string;
  merchantpaymentid: string;
  sessionid: string;
  accepturl: string;
  cancelurl: string;
  notificationurl: string;
  amount: number;
  currency: string;
  reference: string;
  idpan: string;
  idexpmonth: string;
  idexpyear: string;
  idsecuritycode: string;
  dfurlpan: string;
  dfurlexpmonth: string;
  dfurlexpyear: string;
  dfurlsecuritycode: string;
  dfurlccsingle: string;
  dfurlscriptinclude: string;
}

export function hostedFieldUrls(sessionId: string) {
  const base = `${config().apiBaseUrls.cit}/dynamic/${sessionId}`;
  return {
    dfurlpan: `${base}/pan`,
    dfurlexpmonth: `${base}/expmonth`,
    dfurlexpyear: `${base}/expyear`,
    dfurlsecuritycode: `${base}/securitycode`,
    dfurlccsingle: `${base}/ccsingle`,
    dfurlscriptinclude: `${base}/dynamic.js`,
  };
}

export async function initSession({ merchantId, mode, input, now = new Date(), bindAnswer }: InitSessionOptions): Promise<InitSessionResponse> {
  // A payment on behalf of stored card data: named by `paymentid`, or by `merchantpaymentid` when
  // the new payment's own reference is given as `newmerchantpaymentid`.
  const onBehalfRef = input.paymentid ?? (input.newmerchantpaymentid ? input.merchantpaymentid : undefined);
  const onBehalfParameter = input.paymentid ? "paymentid" : "merchantpaymentid";
  const newPaymentReference = onBehalfRef ? input.newmerchantpaymentid : input.merchantpaymentid;
  const newReferenceParameter = onBehalfRef ? "newmerchantpaymentid" : "merchantpaymentid";

  const sessionId = newId();
  const expiresAt = new Date(now.getTime() + input.timeout * 1000);
  // Reads only, so no transaction: the session row is the one write (initdynamic is the hot path).
  const client = db();
  let onBehalfOfPaymentId: string | null = null;
  if (onBehalfRef) {
    onBehalfOfPaymentId = await getPaymentOrThrow({ merchantId, mode, paymentRef: onBehalfRef, parameter: onBehalfParameter });
    const stored = await client.payment.findUniqueOrThrow({ where: { id: onBehalfOfPaymentId }, select: { storedCardId: true } });
    if (!stored.storedCardId) throw invalidParameter(onBehalfParameter, "the payment has no stored card data to pay with");
  }
  if (newPaymentReference) {
    const taken = await client.payment.findUnique({
      where: { merchantId_mode_merchantPaymentId: { merchantId, mode, merchantPaymentId: newPaymentReference } },
      select: { id: true },
    });
    if (taken) throw invalidParameter(newReferenceParameter, "is already used by another payment of this merchant");
  }
  let hostedIntegrationId: string | null = null;
  if (input.hostedid) {
    const hosted = await client.hostedIntegration.findUnique({
      where: { merchantId_hostedId: { merchantId, hostedId: input.hostedid } },
      select: { id: true },
    });
    if (!hosted) throw invalidParameter("hostedid", "no hosted integration with this id");
    hostedIntegrationId = hosted.id;
  }
  // A window no acquirer account of the merchant could authorize is refused now, naming the currency
  // or the processor, rather than failing when the cardholder pays.
  await assertRoutable({ merchantId, mode, currency: input.currency, requested: input.processor, rule: input.rule, cached: true });
  // The completion notification has to reach the merchant: with no address anywhere the window is
  // refused now, as the other asynchronous requests are, instead of its result being dropped.
  if (!input.notificationurl && !(await resolveNotificationUrl({ merchantId, mode, hostedIntegrationId, purpose: "completion", cached: true }))) {
    throw invalidParameter("notificationurl", "is required: no notification address is configured for this merchant");
  }
  // The one write of initdynamic, in raw SQL rather than `paymentSession.create`: measured in
  // docs/performance.md, Prisma's model API (query compiler, result mapping) costs about 0.5 ms of
  // CPU more per INSERT than this statement, a measurable share of the whole request on the
  // merchant API's hottest path. Every column is named, with the values Prisma would have sent
  // (createdAt from this request's clock, as expiresAt), so the row is the same.
  const data = {
    merchantPaymentId: input.merchantpaymentid ?? null,
    newMerchantPaymentId: input.newmerchantpaymentid ?? null,
    reference: input.reference ?? null,
    acceptUrl: input.accepturl ?? null,
    cancelUrl: input.cancelurl ?? null,
    notificationUrl: input.notificationurl ?? null,
    merchantData: input.merchantdata ?? null,
    textOnStatement: input.textonstatement ?? null,
    ...customerColumns(input.customer),
  };
  const insertSession = Prisma.sql`
    INSERT INTO "PaymentSession" ("id", "merchantId", "mode", "hostedIntegrationId", "merchantPaymentId", "newMerchantPaymentId",
      "onBehalfOfPaymentId", "amount", "currency", "reference", "idPan", "idExpMonth", "idExpYear", "idSecurityCode",
      "acceptUrl", "cancelUrl", "notificationUrl", "set3ds", "rule", "timeoutSeconds", "expiresAt", "createdAt",
      "instantCapture", "processors", "merchantData", "textOnStatement",
      "customerEmail", "customerFirstName", "customerSurname", "customerIpAddress")
    VALUES (${sessionId}, ${merchantId}, ${mode}::"Mode", ${hostedIntegrationId}, ${data.merchantPaymentId}, ${data.newMerchantPaymentId},
      ${onBehalfOfPaymentId}, ${input.amount}, ${input.currency}, ${data.reference}, ${input.idpan}, ${input.idexpmonth},
      ${input.idexpyear}, ${input.idsecuritycode}, ${data.acceptUrl}, ${data.cancelUrl}, ${data.notificationUrl},
      ${input.set3ds}::"ThreeDsMode", ${input.rule}, ${input.timeout}, ${expiresAt}, ${now}, ${input.instantcapture},
      ${input.processor}::text[]::"Processor"[], ${data.merchantData}, ${data.textOnStatement},
      ${data.customerEmail}, ${data.customerFirstName}, ${data.customerSurname}, ${data.customerIpAddress})`;

  const answer: InitSessionResponse = {
    merchantid: merchantId,
    merchantpaymentid: input.merchantpaymentid ?? "",
    sessionid: sessionId,
    accepturl: input.accepturl ?? "",
    cancelurl: input.cancelurl ?? "",
    notificationurl: input.notificationurl ?? "",
    amount: Number(input.amount),
    currency: input.currency,
    reference: input.reference ?? "",
    idpan: input.idpan,
    idexpmonth: input.idexpmonth,
    idexpyear: input.idexpyear,
    idsecuritycode: input.idsecuritycode,
    ...hostedFieldUrls(sessionId),
  };
  // With an Idempotency-Key the session and the key's answer commit together; without one the
  // INSERT stays the one statement of the request.
  if (bindAnswer) {
    await client.$transaction(async (tx) => {
      await tx.$executeRaw(insertSession);
      await bindAnswer(tx, { ...answer });
    });
  } else {
    // On the driver (hotSql, decision 0214): the one statement of the hot path, without Prisma's runtime.
    await hotSql().$executeRaw(insertSession);
  }
  return answer;
}
