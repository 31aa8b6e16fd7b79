// The Worldline Direct messages we send and the answers we read, as zod schemas. Field names, types
// and value lists are the official SDKs' ([SDK-JAVA] com.onlinepayments.domain.*, whose javadoc is the
// API reference's text; [SDK-NODE] schemas/*.json). Requests are strict: a field we do not mean to
// send is a bug. Answers are read leniently (Direct adds fields over time) but every field we act on
// is typed.
import { z } from "zod";

// ---- Requests ----

export const worldlineAmountOfMoney = z
  .object({
    /** "Amount in the smallest currency unit". */
    amount: z.number().int().nonnegative(),
    /** "Three-letter ISO currency code". */
    currencyCode: z.string().regex(/^[A-Z]{3}$/),
  })
  .strict();

export const worldlineCard = z
  .object({
    cardNumber: z.string().regex(/^\d{12,19}$/),
    /** "Format: MMYY". */
    expiryDate: z.string().regex(/^(0[1-9]|1[0-2])\d{2}$/),
    cvv: z
      .string()
      .regex(/^\d{3,4}$/)
      .optional(),
    cardholderName: z.string().min(1).max(51).optional(),
  })
  .strict();

/** ExternalCardholderAuthenticationData: the result of our own 3-D Secure, handed to the platform. */
export const worldlineExternalAuthentication = z
  .object({
    /** Integer ECI: "2 = Successful authentication (MasterCard) ... 5 = Successful authentication (Visa ...)". */
    eci: z.number().int().min(0).max(7),
    /** "mandatory for ECI 2 and 5". */
    cavv: z.string().min(1).optional(),
    directoryServerTransactionId: z.string().min(1).optional(),
    acsTransactionId: z.string().min(1).optional(),
    /** "v1 | v2 | 1.0.2 | 2.1.0 | 2.2.0". */
    threeDSecureVersion: z.string().min(1),
    /** "3D Secure Flow used during this transaction". */
    flow: z.enum(["frictionless", "challenge"]).optional(),
  })
  .strict();

export const worldlineThreeDSecure = z
  .object({
    skipAuthentication: z.boolean().optional(),
    externalCardholderAuthenticationData: worldlineExternalAuthentication.optional(),
  })
  .strict();

export const WORLDLINE_AUTHORIZATION_MODES = ["FINAL_AUTHORIZATION", "PRE_AUTHORIZATION", "SALE"] as const;

export const worldlineCardPaymentInput = z
  .object({
    paymentProductId: z.number().int().positive(),
    authorizationMode: z.enum(WORLDLINE_AUTHORIZATION_MODES),
    /** "ECOMMERCE - a regular E-Commerce transaction | MOTO". */
    transactionChannel: z.literal("ECOMMERCE"),
    card: worldlineCard,
    threeDSecure: worldlineThreeDSecure.optional(),
    /** "merchantInitiated | cardholderInitiated"; "not allowed if isRecurring is true". */
    unscheduledCardOnFileRequestor: z.enum(["merchantInitiated", "cardholderInitiated"]).optional(),
    /** "first | subsequent"; "not allowed if isRecurring is true". */
    unscheduledCardOnFileSequenceIndicator: z.enum(["first", "subsequent"]).optional(),
    /** "The unique scheme transactionId of the initial transaction that was performed with SCA". */
    initialSchemeTransactionId: z.string().min(1).optional(),
    isRecurring: z.boolean().optional(),
    recurring: z
      .object({ recurringPaymentSequenceIndicator: z.enum(["first", "recurring"]) })
      .strict()
      .optional(),
    /** We keep cards ourselves: no Worldline token is asked for. */
    tokenize: z.literal(false).optional(),
  })
  .strict();

export const worldlineCreatePaymentRequest = z
  .object({
    order: z
      .object({
        amountOfMoney: worldlineAmountOfMoney,
        references: z
          .object({
            merchantReference: z.string().min(1).max(40),
            descriptor: z.string().min(1).max(22).optional(),
          })
          .strict(),
        customer: z
          .object({
            device: z
              .object({ ipAddress: z.string().min(1).max(45) })
              .strict()
              .optional(),
            contactDetails: z
              .object({ emailAddress: z.string().min(1) })
              .strict()
              .optional(),
            personalInformation: z
              .object({
                name: z.object({ firstName: z.string().min(1).max(15).optional(), surname: z.string().min(1).max(70).optional() }).strict(),
              })
              .strict()
              .optional(),
          })
          .strict()
          .optional(),
      })
      .strict(),
    cardPaymentMethodSpecificInput: worldlineCardPaymentInput,
  })
  .strict();
export type WorldlineCreatePaymentRequest = z.infer<typeof worldlineCreatePaymentRequest>;

/** OperationPaymentReferences: our reference of a capture, refund or cancel, kept with the operation. */
const operationReferences = z.object({ merchantReference: z.string().min(1).max(40) }).strict();

export const worldlineCaptureRequest = z
  .object({
    /** "The amount can be lower than the amount that was authorized, but not higher." */
    amount: z.number().int().positive(),
    /** "Whether this will be the final operation"; default false: later captures stay possible. */
    isFinal: z.boolean(),
    operationReferences,
  })
  .strict();
export type WorldlineCaptureRequest = z.infer<typeof worldlineCaptureRequest>;

export const worldlineRefundRequest = z
  .object({
    amountOfMoney: worldlineAmountOfMoney,
    operationReferences,
  })
  .strict();
export type WorldlineRefundRequest = z.infer<typeof worldlineRefundRequest>;

export const worldlineCancelRequest = z
  .object({
    /** Absent: the whole remaining authorization is reversed. */
    amountOfMoney: worldlineAmountOfMoney.optional(),
    isFinal: z.boolean().optional(),
    operationReferences,
  })
  .strict();
export type WorldlineCancelRequest = z.infer<typeof worldlineCancelRequest>;

// ---- Answers ----

/** APIError. `errorCode` is the 8-digit platform code; `code` the older field some answers still carry. */
export const worldlineApiError = z
  .object({
    errorCode: z.string().nullish(),
    code: z.string().nullish(),
    category: z.string().nullish(),
    httpStatusCode: z.number().int().nullish(),
    id: z.string().nullish(),
    message: z.string().nullish(),
    propertyName: z.string().nullish(),
    /** "the same request can safely be sent again with a new idempotence key": nothing was done. */
    retriable: z.boolean().nullish(),
  })
  .passthrough();
export type WorldlineApiError = z.infer<typeof worldlineApiError>;

const amountOfMoneyOut = z.object({ amount: z.number().int(), currencyCode: z.string() }).passthrough();

const statusOutput = z
  .object({
    errors: z.array(worldlineApiError).nullish(),
    isAuthorized: z.boolean().nullish(),
    isCancellable: z.boolean().nullish(),
    isRefundable: z.boolean().nullish(),
    statusCategory: z.string().nullish(),
    statusCode: z.number().int().nullish(),
  })
  .passthrough();

const cardOutput = z
  .object({
    authorisationCode: z.string().nullish(),
    paymentProductId: z.number().int().nullish(),
    initialSchemeTransactionId: z.string().nullish(),
    schemeReferenceData: z.string().nullish(),
    paymentAccountReference: z.string().nullish(),
    card: z.object({ cardNumber: z.string().nullish(), bin: z.string().nullish() }).passthrough().nullish(),
    threeDSecureResults: z.object({ eci: z.string().nullish(), liability: z.string().nullish() }).passthrough().nullish(),
    reattemptInstructions: z.object({ indicator: z.string().nullish() }).passthrough().nullish(),
  })
  .passthrough();

export const worldlinePaymentResponse = z
  .object({
    id: z.string().min(1),
    status: z.string(),
    statusOutput: statusOutput.nullish(),
    paymentOutput: z
      .object({
        amountOfMoney: amountOfMoneyOut.nullish(),
        acquiredAmount: amountOfMoneyOut.nullish(),
        references: z.object({ merchantReference: z.string().nullish() }).passthrough().nullish(),
        cardPaymentMethodSpecificOutput: cardOutput.nullish(),
      })
      .passthrough()
      .nullish(),
  })
  .passthrough();
export type WorldlinePaymentResponse = z.infer<typeof worldlinePaymentResponse>;

export const worldlineCreatePaymentResponse = z.object({ payment: worldlinePaymentResponse }).passthrough();

/** CaptureResponse: its own id ("3066019730_1"), status CAPTURE_REQUESTED or CAPTURED. */
export const worldlineCaptureResponse = z
  .object({
    id: z.string().min(1),
    status: z.string(),
    statusOutput: z.object({ statusCode: z.number().int().nullish() }).passthrough().nullish(),
  })
  .passthrough();

/** RefundResponse: REFUND_REQUESTED or REFUNDED. */
export const worldlineRefundResponse = z
  .object({ id: z.string().min(1), status: z.string(), statusOutput: statusOutput.nullish() })
  .passthrough();

export const worldlineCancelResponse = z.object({ payment: worldlinePaymentResponse }).passthrough();

/** ErrorResponse, PaymentErrorResponse (with the rejected payment) and RefundErrorResponse. */
export const worldlineErrorResponse = z
  .object({
    errorId: z.string().nullish(),
    errors: z.array(worldlineApiError).nullish(),
    paymentResult: z.object({ payment: worldlinePaymentResponse.nullish() }).passthrough().nullish(),
    refundResult: worldlineRefundResponse.nullish(),
  })
  .passthrough();
export type WorldlineErrorResponse = z.infer<typeof worldlineErrorResponse>;

/** OperationOutput: one capture, refund or cancellation on a payment, with our reference. */
export const worldlineOperation = z
  .object({
    id: z.string(),
    status: z.string(),
    amountOfMoney: amountOfMoneyOut.nullish(),
    statusOutput: statusOutput.nullish(),
    operationReferences: z.object({ merchantReference: z.string().nullish() }).passthrough().nullish(),
    references: z.object({ merchantReference: z.string().nullish() }).passthrough().nullish(),
  })
  .passthrough();
export type WorldlineOperation = z.infer<typeof worldlineOperation>;

/**
 * GetPaymentDetails: the payment and "the complete list of operations executed on the payment".
 * The SDKs name the list `operations`; Worldline's own plugin stubs spell it `Operations` ([WL-MAG]):
 * both are read.
 */
export const worldlinePaymentDetailsResponse = worldlinePaymentResponse
  .extend({ operations: z.array(worldlineOperation).nullish(), Operations: z.array(worldlineOperation).nullish() })
  .transform(({ Operations, operations, ...rest }) => ({ ...rest, operations: operations ?? Operations ?? [] }));
export type WorldlinePaymentDetailsResponse = z.infer<typeof worldlinePaymentDetailsResponse>;
