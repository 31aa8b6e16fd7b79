// What the Worldline Direct sandbox answers with, written from Worldline's public references, never
// from our connector (docs/acquirers.md, "Bambora on Worldline Direct", lists each with its source):
// the error bodies, the status values and codes, the documented test cards, the hosts' sandbox
// accounts. Where a reference gives a code but not the HTTP status or `id` it comes with, the pairing
// is this sandbox's reading and says so.

/** One APIError as Direct sends it ([SDK-JAVA] APIError; [SDK-PHP] tests/.../ExceptionTest.php). */
export interface DirectError {
  httpStatusCode: number;
  errorCode: string;
  category: "DIRECT_PLATFORM_ERROR" | "PAYMENT_PLATFORM_ERROR" | "IO_ERROR";
  id?: string;
  message: string;
  retriable?: boolean;
}

const error = (
  httpStatusCode: number,
  errorCode: string,
  category: DirectError["category"],
  message: string,
  id?: string,
): DirectError => ({
  httpStatusCode,
  errorCode,
  category,
  message,
  ...(id ? { id } : {}),
});

export const DIRECT_ERRORS = {
  /**
   * [SDK-PHP] ExceptionTest testExceptionStringRepresentation: 400, code 20000000,
   * PARAMETER_NOT_FOUND_IN_REQUEST, one per missing property with its `propertyName`.
   */
  parameterNotFound: error(
    400,
    "20000000",
    "DIRECT_PLATFORM_ERROR",
    "The parameter shown above was not found in the request received by OnlinePayments.",
    "PARAMETER_NOT_FOUND_IN_REQUEST",
  ),
  /** [SDK-JAVA] communication/postWithBadRequestResponse.json: 400, code 21000020 (the Luhn check). */
  luhnCheck: error(400, "21000020", "DIRECT_PLATFORM_ERROR", "VALUE **************** OF FIELD CREDITCARDNUMBER DID NOT PASS THE LUHNCHECK"),
  /** [OGONE-ERR] 50001111 "Data validation error": a value of the wrong form (sandbox reading: 400). */
  invalidValue: error(400, "50001111", "DIRECT_PLATFORM_ERROR", "Data validation error"),
  /** [OGONE-ERR] 50001183 "Expiration date must be in the future" (sandbox reading: 400). */
  expired: error(400, "50001183", "DIRECT_PLATFORM_ERROR", "Expiration date must be in the future"),
  /** [OGONE-ERR] 50001122 "Currency not accepted by the merchant" (sandbox reading: 400). */
  currencyNotAccepted: error(400, "50001122", "PAYMENT_PLATFORM_ERROR", "Currency not accepted by the merchant"),
  /** [OGONE-ERR] 50001011 "Brand not supported for that merchant" (sandbox reading: 400). */
  brandNotSupported: error(400, "50001011", "PAYMENT_PLATFORM_ERROR", "Brand not supported for that merchant"),
  /** [OGONE-ERR] 50001126 "Overflow in data capture requests for the original order" (sandbox reading: 400). */
  captureOverflow: error(400, "50001126", "PAYMENT_PLATFORM_ERROR", "Overflow in data capture requests for the original order"),
  /** [OGONE-ERR] 50001129 "Overflow in refunds requests" (sandbox reading: 400). */
  refundOverflow: error(400, "50001129", "PAYMENT_PLATFORM_ERROR", "Overflow in refunds requests"),
  /** [OGONE-ERR] 50001127 "The original order is not in a correct status" (sandbox reading: 400). */
  wrongStatus: error(400, "50001127", "PAYMENT_PLATFORM_ERROR", "The original order is not in a correct status"),
  /** [OGONE-ERR] 50001130 "Error access to original order"; 404 "The object you were trying to access could not be found" (docs.direct API troubleshooting). */
  unknownPayment: error(404, "50001130", "PAYMENT_PLATFORM_ERROR", "Error access to original order"),
  /**
   * 403 "Not authorized" (docs.direct API troubleshooting; [SDK-JAVA] ExceptionFactory: 403 =
   * AuthorizationException; [SDK-PHP] ExceptionTest testAuthorizationException: an unknown merchant id
   * in the path answers 403). The code and id are Worldline's client SDK's for a refused signature
   * ([WL-OBJC] code 9002 "MISSING_OR_INVALID_AUTHORIZATION"): the sandbox's reading for Direct.
   */
  authorization: error(403, "9002", "DIRECT_PLATFORM_ERROR", "MISSING_OR_INVALID_AUTHORIZATION", "MISSING_OR_INVALID_AUTHORIZATION"),
  /** 409 with the single error 1409: the first request with this idempotence key is still running ([SDK-JAVA] ExceptionFactory.isIdempotenceError). */
  idempotenceInProgress: error(409, "1409", "DIRECT_PLATFORM_ERROR", "A request with the same idempotence key is still being processed"),
  /** [SDK-JAVA] communication/unknownServerError.json: 500, 9999 UNKNOWN_SERVER_ERROR. */
  unknownServerError: error(500, "9999", "DIRECT_PLATFORM_ERROR", "UNKNOWN_SERVER_ERROR"),
} as const;

/** The issuer and platform codes a rejected payment carries ([OGONE-ERR]; ISO 8583 code embedded as 30XX1001). */
export const DIRECT_DECLINES = {
  declined: error(402, "30051001", "PAYMENT_PLATFORM_ERROR", "Authorization declined"),
  invalidCardNumber: error(402, "30141001", "PAYMENT_PLATFORM_ERROR", "Invalid card number"),
  insufficientFunds: error(402, "30511001", "PAYMENT_PLATFORM_ERROR", "Insufficient funds"),
  expiredCard: error(402, "30541001", "PAYMENT_PLATFORM_ERROR", "Card expired"),
  /** "The transaction type requires authentication, please check with your bank": the issuer's SCA soft decline. */
  authenticationRequired: error(
    402,
    "50001087",
    "PAYMENT_PLATFORM_ERROR",
    "The transaction type requires authentication, please check with your bank.",
  ),
  cvcInvalid: error(402, "30001090", "PAYMENT_PLATFORM_ERROR", "CVC check required by front end and returned invalid by acquirer"),
  /** [OGONE-ERR] 50001054 "Card number incorrect or incompatible": a number that is no card of the product ([SDK-PHP] ExceptionTest: a non-existing card is REJECTED). */
  cardIncompatible: error(402, "50001054", "PAYMENT_PLATFORM_ERROR", "Card number incorrect or incompatible"),
} as const;

/**
 * Payment statuses with their statusCode and statusCategory: the values of [WL-SRV]
 * (sdk-server-examples server/nodejs domain enums Status, StatusCategory) and the codes of [WL-MAG]
 * (TransactionStatusInterface: 5 pending capture, 9 captured, 81 pending refund, 8 refunded, 2
 * declined, 6 authorised and cancelled) and [WL-WOO] (OrderUpdater.determineWcStatus: 91 payment
 * processing).
 */
export const DIRECT_STATUS = {
  pendingCapture: { status: "PENDING_CAPTURE", statusCode: 5, statusCategory: "PENDING_MERCHANT" },
  captured: { status: "CAPTURED", statusCode: 9, statusCategory: "COMPLETED" },
  captureRequested: { status: "CAPTURE_REQUESTED", statusCode: 91, statusCategory: "PENDING_CONNECT_OR_3RD_PARTY" },
  rejected: { status: "REJECTED", statusCode: 2, statusCategory: "UNSUCCESSFUL" },
  cancelled: { status: "CANCELLED", statusCode: 6, statusCategory: "UNSUCCESSFUL" },
  refundRequested: { status: "REFUND_REQUESTED", statusCode: 81, statusCategory: "PENDING_CONNECT_OR_3RD_PARTY" },
  refunded: { status: "REFUNDED", statusCode: 8, statusCategory: "REFUNDED" },
  /** The platform authenticates the cardholder itself (merchantAction REDIRECT): "46 waiting authentication". */
  redirected: { status: "REDIRECTED", statusCode: 46, statusCategory: "PENDING_PAYMENT" },
} as const;
export type DirectStatus = (typeof DIRECT_STATUS)[keyof typeof DIRECT_STATUS];

/** Payment product ids ([ODOO-WL] const.PAYMENT_METHODS_MAPPING; docs.direct "Dankort": 123, DKK). */
export const DIRECT_PRODUCTS = { visa: 1, amex: 2, mastercard: 3, dankort: 123 } as const;

/**
 * Direct's test cards ("Test cases", docs.direct …/integration/how-to-integrate/test-cases, as Odoo's
 * payment_worldline README and the ANZ Worldline plugin README quote them; 4567350000427977 from
 * [SDK-NODE] __tests__/integration/__stubs__/payments/create.json). "Challenge" cards ask the
 * platform's own 3-D Secure for a challenge; a request that brings its own result or skips the
 * authentication is authorized as the frictionless ones are. The decline code of the declined cards
 * is not published: the sandbox answers 30051001 "Authorization declined".
 */
export const DIRECT_TEST_CARDS: Readonly<Record<string, { approve: boolean; product: keyof typeof DIRECT_PRODUCTS }>> = {
  "4330264936344675": { approve: true, product: "visa" },
  "4874970686672022": { approve: true, product: "visa" },
  "4567350000427977": { approve: true, product: "visa" },
  "5137009801943438": { approve: true, product: "mastercard" },
  "5130257474533310": { approve: true, product: "mastercard" },
  "5168645305790452": { approve: false, product: "mastercard" },
  "5144144373781246": { approve: false, product: "mastercard" },
};

/**
 * How far the Date header may be from the sandbox's clock. The Date is signed, and the platform
 * "recalculates this very signature" (docs.direct "Manual authentication"); Worldline publishes no
 * window: five minutes is the sandbox's reading (the common HTTP-signature practice).
 */
export const DATE_SKEW_MS = 5 * 60_000;

/** "Do not use the same key twice within the idempotence period (at least 24 hours)". */
export const IDEMPOTENCE_PERIOD_MS = 24 * 60 * 60_000;
