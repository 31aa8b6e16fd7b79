// One example of every request and answer the OpenAPI document publishes. A unit test
// (tests/unit/openapi) checks each against its schema, and each request example against the zod
// schema the service parses it with, so an example cannot show what the service would refuse.
import { ACQUIRER_NAMES } from "../acquirers/names";
import { invalidApiKey, invalidMerchantId, invalidParameter, rateLimited, serviceUnavailable, type ApiErrorCode } from "../errors";

const MERCHANT = "100000000042";
const PAYMENT = "5f2b8c1e9d7a4e3f8b6c0a1d2e3f4a5b";
const SESSION = "0d9e8f7a6b5c4d3e2f1a0b9c8d7e6f5a";
const RESPONSE = "7c1e2d3f4a5b6c7d8e9f0a1b2c3d4e5f";
const CIT = "https://pay.your-psp.example/dynamic";
/** The processors the examples name: the second and the first of the service's list. */
const [FIRST_PROCESSOR, EXAMPLE_PROCESSOR] = ACQUIRER_NAMES;

export const REQUEST_EXAMPLES = {
  InitDynamicRequest: {
    merchantid: MERCHANT,
    merchantpaymentid: "order10042",
    amount: 12500,
    currency: "DKK",
    reference: "Order 10042",
    set3ds: "FORCE_3DS",
    instantcapture: 0,
    processor: [EXAMPLE_PROCESSOR, FIRST_PROCESSOR],
    textonstatement: "Webshop 10042",
    notificationurl: "https://shop.example.org/payments/notify",
  },
  MitRequest: {
    merchantid: MERCHANT,
    paymentid: PAYMENT,
    newmerchantpaymentid: "sub10042m2",
    amount: 9900,
    currency: "DKK",
    reference: "Subscription March",
    paymenttype: "scheduled",
    notificationurl: "https://shop.example.org/payments/notify",
  },
  OperationRequest: { amount: 5000, note: "First shipment", notificationurl: "https://shop.example.org/payments/notify" },
  DisputeDecisionRequest: { decision: "refute" },
  PayoutRequest: {
    amount: 2500,
    currency: "DKK",
    email: "jane.doe@example.org",
    firstname: "Jane",
    surename: "Doe",
    textonstatement: "Winnings 10042",
  },
} as const;

export const ANSWER_EXAMPLES = {
  PaymentSession: {
    merchantid: MERCHANT,
    merchantpaymentid: "order10042",
    sessionid: SESSION,
    accepturl: "",
    cancelurl: "",
    notificationurl: "https://shop.example.org/payments/notify",
    amount: 12500,
    currency: "DKK",
    reference: "Order 10042",
    idpan: "pan",
    idexpmonth: "expmonth",
    idexpyear: "expyear",
    idsecuritycode: "securitycode",
    dfurlpan: `${CIT}/${SESSION}/pan`,
    dfurlexpmonth: `${CIT}/${SESSION}/expmonth`,
    dfurlexpyear: `${CIT}/${SESSION}/expyear`,
    dfurlsecuritycode: `${CIT}/${SESSION}/securitycode`,
    dfurlccsingle: `${CIT}/${SESSION}/ccsingle`,
    dfurlscriptinclude: `${CIT}/${SESSION}/dynamic.js`,
  },
  Accepted: { responseid: RESPONSE },
  PayoutResult: { responseid: RESPONSE, responsecode: "00", authorizationcode: "482913", status: "approved", processor: EXAMPLE_PROCESSOR },
  Health: {
    api: ["cit", "mit", "capture", "refund", "payout", "payment"].map((api) => ({ api, status: "ok", msg: "" })),
    backoffice: { status: "ok", msg: "" },
    website: { status: "ok", msg: "" },
  },
  HealthError: {
    api: [
      { api: "cit", status: "error", msg: "database: no answer within 2000 ms" },
      ...["mit", "capture", "refund", "payout", "payment"].map((api) => ({ api, status: "error", msg: "database: no answer within 2000 ms" })),
    ],
    backoffice: { status: "error", msg: "database: no answer within 2000 ms" },
    website: { status: "ok", msg: "" },
  },
  PaymentRecord: {
    merchantid: MERCHANT,
    paymentid: PAYMENT,
    merchantpaymentid: "order10042",
    parentpaymentid: "",
    responseid: RESPONSE,
    amount: 12500,
    balance: 5000,
    currency: "DKK",
    reference: "Order 10042",
    paymenttype: "cit",
    processor: EXAMPLE_PROCESSOR,
    textonstatement: "Webshop 10042",
    note: "",
    tags: "",
    sca: "Y",
    scheme: "visa",
    segment: "consumer",
    Issuer: "Example Bank",
    "Expiry date": "12/2030",
    last4: "1111",
    funding: "credit",
    pantype: "fpan",
    customer: { email: "jane.doe@example.org", firstname: "Jane", surename: "Doe", ipaddress: "192.0.2.10" },
    operations: [
      {
        operationid: "1a2b3c4d5e6f7a8b9c0d1e2f3a4b5c6d",
        operationtype: "authorize",
        paymenttype: "cit",
        amount: "12500",
        currency: "DKK",
        created: "2026-03-02 14:05:09",
        note: "",
        responsecode: "00",
        authorizationcode: "482913",
        status: "approved",
      },
      {
        operationid: "2b3c4d5e6f7a8b9c0d1e2f3a4b5c6d7e",
        operationtype: "capture",
        amount: "5000",
        currency: "DKK",
        created: "2026-03-03 09:12:44",
        note: "First shipment",
        responsecode: "00",
        authorizationcode: "482913",
        status: "approved",
      },
    ],
    mode: "live",
  },
} as const;

/** A dispute as its `dispute` notification and the disputes API both show it. */
const DISPUTE_SEEN = {
  disputeid: "dsp7Qm2xK9pL4nR8sT1v",
  paymentid: PAYMENT,
  merchantpaymentid: "order10042",
  operationid: "op5Fh8Jk2Lm9Np3Qr6St",
  processor: EXAMPLE_PROCESSOR,
  type: "chargeback",
  status: "open",
  reasoncode: "4837",
  reason: "fraud",
  amount: "12500",
  currency: "DKK",
  partial: false,
  openedon: "2026-11-20",
  dueon: "2026-12-04",
  expireson: "",
  answers: ["refute", "accept"],
  mode: "live",
} as const;

const DISPUTE = { ...DISPUTE_SEEN, decision: "", evidencefiles: 0, updated: "2026-11-20 06:05:12" } as const;

/** The disputes API's answers (beyond the spec), merged into ANSWER_EXAMPLES. */
export const DISPUTE_ANSWER_EXAMPLES = {
  Dispute: DISPUTE,
  DisputeList: { disputes: [DISPUTE] },
  DisputeEvidenceResult: { disputeid: DISPUTE.disputeid, evidenceids: ["ev3Hk8Lm2Np7Qr1St5Vw9"] },
  DisputeDecided: { ...DISPUTE, status: "refuted", answers: [], decision: "refute", evidencefiles: 1, updated: "2026-11-21 09:14:03" },
} as const;

export const NOTIFICATION_EXAMPLES = {
  CompletionNotification: {
    sessionid: SESSION,
    paymentid: PAYMENT,
    merchantpaymentid: "order10042",
    newmerchantpaymentid: "",
    status: "approved",
    responsecode: "00",
    authorizationcode: "482913",
    processor: EXAMPLE_PROCESSOR,
    tcardnumber: "411111xxxxxx1111",
    eci: 5,
    merchantdata: "eyJjYXJ0IjoxMDA0Mn0=",
    par: "V0010013018209876543210987654",
    mode: "live",
  },
  MitNotification: {
    responseid: RESPONSE,
    paymentid: "9a8b7c6d5e4f3a2b1c0d9e8f7a6b5c4d",
    newmerchantpaymentid: "sub10042m2",
    responsecode: "00",
    authorizationcode: "573024",
    status: "approved",
    processor: EXAMPLE_PROCESSOR,
    eci: "",
    par: "V0010013018209876543210987654",
    mode: "live",
  },
  OperationNotification: {
    responseid: RESPONSE,
    paymentid: PAYMENT,
    merchantpaymentid: "order10042",
    responsecode: "00",
    authorizationcode: "482913",
    status: "approved",
    mode: "live",
  },
  LifecycleNotification: { paymentid: PAYMENT, merchantpaymentid: "order10042", change: "expiry", mode: "live" },
  DisputeNotification: { event: "opened", ...DISPUTE_SEEN },
  TestNotification: {
    type: "test",
    merchantid: MERCHANT,
    message: "Test notification from the back office: your endpoint received and can verify signed notifications.",
    created: "2026-03-02 14:05:09",
    mode: "test",
  },
} as const;

/**
 * An example errordescription per code, made by the functions the service refuses with where there
 * are such; a code without one here (added by a later change) shows its description's first sentence.
 */
export const ERROR_DESCRIPTION_EXAMPLES: Partial<Record<ApiErrorCode, string>> = {
  INVALID_API_KEY: invalidApiKey().message,
  INVALID_MERCHANTID: invalidMerchantId().message,
  INVALID_PARAMETER: invalidParameter("amount", "must be 1 to 12 digits (minor units); decimal separators, signs and letters are not supported")
    .message,
  IDEMPOTENCY_IN_PROGRESS: "Idempotency-Key: a request with this key is still being processed; retry later",
  PAYLOAD_TOO_LARGE: "body: must be at most 65536 bytes",
  RATE_LIMITED: rateLimited(1, "20 requests per second").message,
  INTERNAL_ERROR: "unexpected error; quote request id 01JQ3ZK4S8W6B2N5M7P9R1T3V5",
  SERVICE_UNAVAILABLE: serviceUnavailable().message,
  ACQUIRER_UNAVAILABLE:
    "the acquirer's reporting API did not answer usably (HTTP 503); what was sent may not have reached it. Read the dispute, then retry",
  ACQUIRER_CREDENTIALS_REFUSED:
    "the acquirer refused this acquirer account's reporting API credentials; nothing was done there. Enter them again (back office or `accounts set-reporting-credentials`), then retry",
};
