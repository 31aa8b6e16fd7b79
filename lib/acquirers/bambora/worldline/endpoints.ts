// Where Worldline Direct is reached and which paths its card operations use. Hosts: Odoo's module
// ([ODOO-WL] payment_provider.py `_worldline_get_api_url`) and the Node SDK's test configuration
// ([SDK-NODE] __tests__/config.json.dist, the preprod host); paths: the official SDKs ([SDK-JAVA] merchant/*Client.java): every
// resource sits under `/v2/{merchantId}`, the merchant id being the PSPID.

export const WORLDLINE_HOSTS = {
  test: "https://payment.preprod.direct.worldline-solutions.com",
  live: "https://payment.direct.worldline-solutions.com",
} as const;

/** A PSPID goes into the path; anything but the characters a PSPID has is refused before a request is made. */
export function isWorldlineMerchantId(value: string): boolean {
  return /^[A-Za-z0-9_.-]{1,30}$/.test(value);
}

function merchantPath(merchantId: string): string {
  if (!isWorldlineMerchantId(merchantId)) throw new Error("the Worldline merchant id (PSPID) has characters a PSPID does not have");
  return `/v2/${merchantId}`;
}

function paymentPath(merchantId: string, paymentId: string): string {
  // Payment ids are the platform's ("3254564310_0"); one that is not is never put into a path.
  if (!/^[A-Za-z0-9_-]{1,64}$/.test(paymentId)) throw new Error("not a Worldline payment id");
  return `${merchantPath(merchantId)}/payments/${paymentId}`;
}

export const worldlinePaths = {
  /** POST: CreatePayment. */
  createPayment: (merchantId: string) => `${merchantPath(merchantId)}/payments`,
  /** GET: GetPayment. */
  payment: paymentPath,
  /** GET: GetPaymentDetails, the payment with every operation on it ("the complete list of operations executed on the payment"). */
  paymentDetails: (merchantId: string, paymentId: string) => `${paymentPath(merchantId, paymentId)}/details`,
  /** POST: CapturePayment. */
  capture: (merchantId: string, paymentId: string) => `${paymentPath(merchantId, paymentId)}/capture`,
  /** POST: RefundPayment. */
  refund: (merchantId: string, paymentId: string) => `${paymentPath(merchantId, paymentId)}/refund`,
  /** POST: CancelPayment (the reversal of an authorization). */
  cancel: (merchantId: string, paymentId: string) => `${paymentPath(merchantId, paymentId)}/cancel`,
  /** GET: TestConnection ([SDK-JAVA] ServicesClient.testConnection). */
  testConnection: (merchantId: string) => `${merchantPath(merchantId)}/services/testconnection`,
} as const;

/** `X-GCS-Idempotence-Key`: "a maximum length of 40 characters", ASCII (docs.direct "Idempotent requests"). */
export const WORLDLINE_IDEMPOTENCE_HEADER = "X-GCS-Idempotence-Key";

export function isWorldlineIdempotenceKey(value: string): boolean {
  return /^[\x21-\x7e]{1,40}$/.test(value);
}
