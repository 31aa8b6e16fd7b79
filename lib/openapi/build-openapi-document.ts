// The OpenAPI 3.1 document of the merchant API, built from the zod schemas that validate requests
// (lib/validation) and describe answers and notifications: one source of truth, so the document
// cannot say something the service does not do. Served at /api/openapi.json.
import { z } from "zod";
import { API_ERROR_STATUS, type ApiErrorCode } from "../errors";
import { NOTIFICATION_KIND_HEADER } from "../notifications/notification-kind-header";
import { amountSchema, positiveAmountSchema } from "../validation/common";
import { initSessionRequestSchema } from "../validation/init-session";
import { mitRequestSchema } from "../validation/mit";
import { operationRequestSchema } from "../validation/operation";
import { paymentDetailsRequestSchema } from "../validation/payment-details";
import { payoutRequestSchema } from "../validation/payout";
import {
  errorBodySchema,
  healthResponseSchema,
  payoutResponseSchema,
  responseIdResponseSchema,
  sessionResponseSchema,
} from "../validation/responses";
import {
  completionNotificationSchema,
  lifecycleNotificationSchema,
  mitNotificationSchema,
  operationNotificationSchema,
  paymentRecordSchema,
  testNotificationSchema,
} from "../validation/notifications";

type JsonSchema = Record<string, unknown>;

/** What each error code means; typed by the error table, so a new code cannot go undocumented. */
export const ERROR_CODE_DESCRIPTIONS: Record<ApiErrorCode, string> = {
  INVALID_API_KEY: "The Authorization header is missing or names no valid key (unknown, revoked or expired). Spec 7.",
  INVALID_MERCHANTID: "merchantid does not belong to the API key. Spec 7.",
  INVALID_PARAMETER:
    "A parameter (or the body, a header such as TraceApi or Idempotency-Key, or the path's payment id) is refused; errordescription names it and says why. Spec 7.",
  IDEMPOTENCY_IN_PROGRESS:
    "The first request with this Idempotency-Key is still being processed and may already have acted; send the same request again later and you get its answer, never a second operation (beyond the spec).",
  NOT_FOUND: "The /api/ path names no endpoint (beyond the spec).",
  METHOD_NOT_ALLOWED: "The endpoint does not take this method; the Allow header lists the ones it takes (beyond the spec).",
  PAYLOAD_TOO_LARGE: "The request body is over the endpoint's limit and was not read (beyond the spec).",
  RATE_LIMITED: "Too many requests for this API key; the Retry-After header says when to retry (beyond the spec).",
  INTERNAL_ERROR:
    "Something unexpected failed and work may have been done under the responseid in the body (also in errordescription, to quote to support). With an Idempotency-Key, the same request again answers what was done (the result, or the operation's current state), never a second operation (beyond the spec).",
  SERVICE_UNAVAILABLE:
    "The service is overloaded (no database connection in time) and nothing was done; send the same request again, with the same Idempotency-Key, after the Retry-After header's seconds (beyond the spec).",
};

/**
 * Request fields whose schema transforms its input (amounts accept a number or a digit string; one
 * processor name reads as a list of one): what the merchant may send, stated for the document.
 */
const INPUT_OVERRIDES = new Map<z.ZodType, JsonSchema>([
  [
    amountSchema,
    {
      anyOf: [
        { type: "integer", minimum: 0, maximum: 999_999_999_999 },
        { type: "string", pattern: "^[0-9]{1,12}$" },
      ],
      description: "Minor units (2.50 is sent as 250), as a JSON integer or a string of 1 to 12 digits.",
    },
  ],
  [
    positiveAmountSchema,
    {
      anyOf: [
        { type: "integer", minimum: 1, maximum: 999_999_999_999 },
        { type: "string", pattern: "^[0-9]{1,12}$" },
      ],
      description: "Minor units, at least 1, as a JSON integer or a string of 1 to 12 digits.",
    },
  ],
  [
    initSessionRequestSchema.shape.processor,
    {
      anyOf: [
        { type: "array", items: { type: "string", enum: ["finaro", "clearhaus", "bambora"] } },
        { type: "string", enum: ["finaro", "clearhaus", "bambora"] },
      ],
      description: "Processors to try in order; when one declines or fails the next is tried. Absent: the merchant's routing rule.",
    },
  ],
]);

export function jsonSchema(schema: z.ZodType, io: "input" | "output"): JsonSchema {
  const result = z.toJSONSchema(schema, {
    io,
    target: "draft-2020-12",
    unrepresentable: "any",
    override: (context) => {
      const replacement = io === "input" ? INPUT_OVERRIDES.get(context.zodSchema as unknown as z.ZodType) : undefined;
      if (!replacement) return;
      for (const key of Object.keys(context.jsonSchema)) delete (context.jsonSchema as JsonSchema)[key];
      Object.assign(context.jsonSchema, replacement);
    },
  }) as JsonSchema;
  delete result.$schema;
  return result;
}

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });

const ERROR_STATUSES = [...new Set(Object.values(API_ERROR_STATUS))].sort((a, b) => a - b);
/** Codes answered with Retry-After (lib/api/merchant-route.ts). */
const RETRY_AFTER_CODES = new Set<ApiErrorCode>(["RATE_LIMITED", "SERVICE_UNAVAILABLE"]);

function errorResponses(codes: ApiErrorCode[]): Record<string, unknown> {
  const responses: Record<string, unknown> = {};
  for (const status of ERROR_STATUSES) {
    const here = codes.filter((code) => API_ERROR_STATUS[code] === status);
    if (here.length === 0) continue;
    responses[String(status)] = {
      description: here.map((code) => `${code}: ${ERROR_CODE_DESCRIPTIONS[code]}`).join("\n\n"),
      headers: {
        TraceApi: { $ref: "#/components/headers/TraceApi" },
        ...(here.some((code) => RETRY_AFTER_CODES.has(code)) ? { "Retry-After": { $ref: "#/components/headers/RetryAfter" } } : {}),
      },
      content: {
        "application/json": {
          schema: { allOf: [ref("ErrorBody"), { type: "object", properties: { error: { enum: here } } }] },
          example: {
            error: here[0],
            errordescription: here[0] === "INVALID_PARAMETER" ? "amount: must be 1 to 12 digits (minor units)" : "...",
          },
        },
      },
    };
  }
  return responses;
}

const COMMON_ERRORS: ApiErrorCode[] = [
  "INVALID_API_KEY",
  "INVALID_MERCHANTID",
  "INVALID_PARAMETER",
  "PAYLOAD_TOO_LARGE",
  "RATE_LIMITED",
  "INTERNAL_ERROR",
  // Every merchant route reads or writes the database (the API key lookup at least).
  "SERVICE_UNAVAILABLE",
];
const POST_ERRORS: ApiErrorCode[] = [...COMMON_ERRORS, "IDEMPOTENCY_IN_PROGRESS"];

const paymentIdParameter = {
  name: "paymentid",
  in: "path",
  required: true,
  description: "The payment: its paymentid, or the merchantpaymentid the merchant gave it.",
  schema: { type: "string", pattern: "^[a-zA-Z0-9]{1,32}$" },
};

function jsonBody(schemaName: string) {
  return { required: true, content: { "application/json": { schema: ref(schemaName) } } };
}

function ok(schemaName: string, description: string) {
  return {
    description,
    headers: { TraceApi: { $ref: "#/components/headers/TraceApi" } },
    content: { "application/json": { schema: ref(schemaName) } },
  };
}

function postOperation(options: {
  operationId: string;
  summary: string;
  description: string;
  body: string;
  answer: string;
  answerDescription: string;
  path?: boolean;
}) {
  return {
    post: {
      operationId: options.operationId,
      summary: options.summary,
      description: options.description,
      parameters: [
        ...(options.path ? [paymentIdParameter] : []),
        { $ref: "#/components/parameters/TraceApi" },
        { $ref: "#/components/parameters/IdempotencyKey" },
      ],
      requestBody: jsonBody(options.body),
      responses: { "200": ok(options.answer, options.answerDescription), ...errorResponses(POST_ERRORS) },
    },
  };
}

/** The lookup's parameters travel in the query string (decision: docs/decisions.md). */
function queryParameters(schema: z.ZodType): unknown[] {
  const object = jsonSchema(schema, "input") as { properties?: Record<string, JsonSchema>; required?: string[] };
  return Object.entries(object.properties ?? {}).map(([name, property]) => ({
    name,
    in: "query",
    required: object.required?.includes(name) ?? false,
    schema: property,
  }));
}

const SIGNATURE_HEADERS = {
  "webhook-id": {
    required: true,
    description: "Unique id of the notification; the same on every retry of it (Standard Webhooks).",
    schema: { type: "string" },
  },
  "webhook-timestamp": {
    required: true,
    description: "Unix seconds when this attempt was signed.",
    schema: { type: "string", pattern: "^[0-9]+$" },
  },
  "webhook-signature": {
    required: true,
    description: 'v1,<base64 HMAC-SHA256 of "<webhook-id>.<webhook-timestamp>.<raw body>"> with the merchant\'s whsec_ secret.',
    schema: { type: "string" },
  },
};

function webhook(options: { operationId: string; summary: string; description: string; schema: string; kinds: string[] }) {
  const kindHeader = {
    name: NOTIFICATION_KIND_HEADER,
    in: "header",
    required: true,
    description:
      "What the notification reports, so it can be routed before the body is parsed (beyond the spec; the body stays the spec's).",
    schema: { type: "string", enum: options.kinds },
  };
  return {
    post: {
      operationId: options.operationId,
      summary: options.summary,
      description: `${options.description}\n\nAcknowledge with HTTP 200; anything else is retried on the schedule of spec 6.2 (at once, 3 × after 3 s, 3 × after 1 h, once after 24 h).`,
      parameters: [kindHeader, ...Object.entries(SIGNATURE_HEADERS).map(([name, header]) => ({ name, in: "header", ...header }))],
      requestBody: { required: true, content: { "application/json": { schema: ref(options.schema) } } },
      responses: { "200": { description: "Received. Any other answer, or none within the attempt's time-out, is retried." } },
    },
  };
}

let cached: Record<string, unknown> | undefined;

export function buildOpenApiDocument(): Record<string, unknown> {
  if (cached) return cached;
  const schemas: Record<string, JsonSchema> = {
    InitDynamicRequest: jsonSchema(initSessionRequestSchema, "input"),
    PaymentSession: jsonSchema(sessionResponseSchema, "output"),
    MitRequest: jsonSchema(mitRequestSchema, "input"),
    OperationRequest: jsonSchema(operationRequestSchema, "input"),
    PayoutRequest: jsonSchema(payoutRequestSchema, "input"),
    PayoutResult: jsonSchema(payoutResponseSchema, "output"),
    Accepted: jsonSchema(responseIdResponseSchema, "output"),
    Health: jsonSchema(healthResponseSchema, "output"),
    ErrorBody: jsonSchema(errorBodySchema, "output"),
    CompletionNotification: jsonSchema(completionNotificationSchema, "output"),
    MitNotification: jsonSchema(mitNotificationSchema, "output"),
    OperationNotification: jsonSchema(operationNotificationSchema, "output"),
    PaymentRecord: jsonSchema(paymentRecordSchema, "output"),
    LifecycleNotification: jsonSchema(lifecycleNotificationSchema, "output"),
    TestNotification: jsonSchema(testNotificationSchema, "output"),
  };
  const errorTable = (Object.keys(API_ERROR_STATUS) as ApiErrorCode[])
    .map((code) => `| ${code} | ${API_ERROR_STATUS[code]} | ${ERROR_CODE_DESCRIPTIONS[code]} |`)
    .join("\n");
  cached = {
    openapi: "3.1.0",
    info: {
      title: "Card Payment Service merchant API",
      version: "1",
      description: [
        "Initialize hosted-field payment windows, charge stored cards, capture, refund, void, pay out and look up payments.",
        "Asynchronous requests answer with a `responseid` and report their result by a signed notification (see webhooks).",
        "",
        "Every refusal has the body `{ error, errordescription }`:",
        "",
        "| error | HTTP status | meaning |",
        "|---|---|---|",
        errorTable,
      ].join("\n"),
    },
    servers: [{ url: "/", description: "This service" }],
    security: [{ apiKey: [] }, { basicAuth: [] }],
    paths: {
      "/api/initdynamic": postOperation({
        operationId: "initDynamic",
        summary: "Open a payment window (spec 4.1)",
        description: "Creates a payment session for the hosted fields. Include `dfurlscriptinclude` in the checkout page.",
        body: "InitDynamicRequest",
        answer: "PaymentSession",
        answerDescription: "The payment session (spec 2.1).",
      }),
      "/api/mit": postOperation({
        operationId: "authorizeMit",
        summary: "Charge stored card data (spec 4.3)",
        description: "Asynchronous: the result arrives as the MIT notification (webhook `mitNotification`).",
        body: "MitRequest",
        answer: "Accepted",
        answerDescription: "Accepted; the notification carries the same responseid.",
      }),
      ...Object.fromEntries(
        (["capture", "refund", "void"] as const).map((verb) => [
          `/api/{paymentid}/${verb}`,
          postOperation({
            operationId: `${verb}Payment`,
            summary: `${verb[0]!.toUpperCase()}${verb.slice(1)} a payment (spec ${verb === "capture" ? "4.4" : verb === "refund" ? "4.5" : "4.6"})`,
            description:
              "Asynchronous: the result arrives as the operation notification (webhook `operationNotification`). An omitted amount means the rest.",
            body: "OperationRequest",
            answer: "Accepted",
            answerDescription: "Accepted; the notification carries the same responseid.",
            path: true,
          }),
        ]),
      ),
      "/api/{paymentid}/payout": postOperation({
        operationId: "payout",
        summary: "Pay out to the card behind a payment (spec 4.7)",
        description:
          "Synchronous: the result is the answer. When the acquirer's answer is unknown (a time-out), status is `pending`: the money may have left, so do not pay out again; the final result (approved, declined or failed) arrives as the operation notification with the same responseid. A payout whose result could reach nobody (no notificationurl and no configured address) is refused.",
        body: "PayoutRequest",
        answer: "PayoutResult",
        answerDescription: "The payout's result, or `pending` until the acquirer's answer is known.",
        path: true,
      }),
      "/api/{paymentid}/payment": {
        get: {
          operationId: "getPaymentDetails",
          summary: "Look up a payment (spec 4.8)",
          description:
            "Asynchronous: the payment record (spec 2.2) arrives as the payment details notification. Parameters travel in the query string. With sync=1 (beyond the spec) the record is the answer and no notification is sent.",
          parameters: [paymentIdParameter, { $ref: "#/components/parameters/TraceApi" }, ...queryParameters(paymentDetailsRequestSchema)],
          responses: {
            "200": {
              description: "Accepted (the notification carries the same responseid); with sync=1, the payment record itself.",
              headers: { TraceApi: { $ref: "#/components/headers/TraceApi" } },
              content: { "application/json": { schema: { oneOf: [ref("Accepted"), ref("PaymentRecord")] } } },
            },
            ...errorResponses(COMMON_ERRORS),
          },
        },
      },
      "/api/health": {
        get: {
          operationId: "health",
          summary: "Health of every interface (spec 4.9)",
          security: [],
          responses: {
            "200": { description: "Every part is ok.", content: { "application/json": { schema: ref("Health") } } },
            "503": { description: "A part is in error; `msg` says which.", content: { "application/json": { schema: ref("Health") } } },
          },
        },
      },
      "/api/openapi.json": {
        get: {
          operationId: "openApiDocument",
          summary: "This document",
          security: [],
          responses: { "200": { description: "OpenAPI 3.1", content: { "application/json": { schema: { type: "object" } } } } },
        },
      },
    },
    webhooks: {
      completionNotification: webhook({
        operationId: "completionNotification",
        summary: "A cardholder payment ended (spec 6.2)",
        description: "Sent to the initialization's notificationurl, else the hosted integration's or the merchant's completion address.",
        schema: "CompletionNotification",
        kinds: ["completion"],
      }),
      mitNotification: webhook({
        operationId: "mitNotification",
        summary: "Result of an MIT authorization (spec 6.3)",
        description: "",
        schema: "MitNotification",
        kinds: ["mit"],
      }),
      operationNotification: webhook({
        operationId: "operationNotification",
        summary: "Result of a capture, refund, void or payout (spec 6.4)",
        description:
          "Sent to the request's notificationurl where given, else the payment's, else the configured address. A payout's final result is always notified, also when it was answered at once.",
        schema: "OperationNotification",
        kinds: ["capture", "refund", "void", "payout", "operation"],
      }),
      paymentDetailsNotification: webhook({
        operationId: "paymentDetailsNotification",
        summary: "The payment record asked for by a lookup (spec 6.5)",
        description: "",
        schema: "PaymentRecord",
        kinds: ["payment-details"],
      }),
      lifecycleNotification: webhook({
        operationId: "lifecycleNotification",
        summary: "The card behind a payment was updated (spec 6.6)",
        description: "Sent to the life-cycle address configured in the back office.",
        schema: "LifecycleNotification",
        kinds: ["lifecycle"],
      }),
      testNotification: webhook({
        operationId: "testNotification",
        summary: "A test sent from the back office (beyond the spec)",
        description: "Settings → Notification URLs → send test notification. Signed like every other notification.",
        schema: "TestNotification",
        kinds: ["test"],
      }),
    },
    components: {
      schemas,
      securitySchemes: {
        apiKey: {
          type: "apiKey",
          in: "header",
          name: "Authorization",
          description: "`Basic <API_KEY>` (spec 5), the key as issued in the back office.",
        },
        basicAuth: {
          type: "http",
          scheme: "basic",
          description: 'HTTP Basic with the API key as the user name and an empty password (`curl -u "$KEY:"`).',
        },
      },
      parameters: {
        TraceApi: {
          name: "TraceApi",
          in: "header",
          required: false,
          description: "Your trace id (a UUID is recommended), stored with the request and echoed in the answer (spec 5).",
          schema: { type: "string", pattern: "^[\\x21-\\x7e]{1,128}$" },
        },
        IdempotencyKey: {
          name: "Idempotency-Key",
          in: "header",
          required: false,
          description:
            "Makes a POST safe to retry: a repeat with the same key and parameters within 24 hours gets the first answer again and does nothing more; with other parameters it is refused (INVALID_PARAMETER).",
          schema: { type: "string", minLength: 1, maxLength: 255 },
        },
      },
      headers: {
        TraceApi: { description: "The request's TraceApi, when it sent one.", schema: { type: "string" } },
        RetryAfter: {
          description: "Seconds to wait before sending the same request again (RATE_LIMITED, SERVICE_UNAVAILABLE).",
          schema: { type: "string", pattern: "^[0-9]+$" },
        },
      },
    },
  };
  return cached;
}
