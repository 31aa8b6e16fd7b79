// @cps/client: the card payment service's merchant API for Node, typed from its OpenAPI document.
export {
  createPaymentClient,
  PaymentApiError,
  type Accepted,
  type ErrorBody,
  type ErrorCode,
  type Health,
  type InitDynamicRequest,
  type MitRequest,
  type OperationRequest,
  type PaymentClient,
  type PaymentClientOptions,
  type PaymentDetailsQuery,
  type PaymentRecord,
  type PaymentSession,
  type PayoutRequest,
  type PayoutResult,
  type RequestOptions,
} from "./payment-client.js";
export {
  NOTIFICATION_KIND_HEADER,
  NOTIFICATION_MODE_HEADER,
  verifyNotification,
  WebhookVerificationError,
  type HeaderBag,
  type NotificationKind,
  type NotificationMode,
  type VerifiedNotification,
  type VerifyNotificationOptions,
} from "./verify-notification.js";
export type { components, operations, paths, webhooks } from "./schema.js";
