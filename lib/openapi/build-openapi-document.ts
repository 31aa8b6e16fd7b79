// The OpenAPI 3.1 document of the merchant API, built from the zod schemas that validate requests
// (lib/validation) and describe answers and notifications: one source of truth, so the document
// cannot say something the service does not do. Served at /api/openapi.json.
import { z } from "zod";
import type { ApiHost } from "../env";
import { DEFAULT_ROUTING } from "../acquirers";
import { API_ERROR_STATUS, type ApiErrorCode } from "../errors";
import { FOLLOW_UP_KINDS, FOLLOW_UP_TYPES } from "../payments/follow-ups/kinds";
import { NOTIFICATION_KIND_HEADER, NOTIFICATION_MODE_HEADER } from "../notifications/notification-kind-header";
import { documentedInputs } from "../validation/documented-input";
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
  disputeNotificationSchema,
  mitNotificationSchema,
  operationNotificationSchema,
  paymentRecordSchema,
  testNotificationSchema,
} from "../validation/notifications";
import {
  disputeDecisionRequestSchema,
  disputeListResponseSchema,
  disputeEvidenceResponseSchema,
  disputeSchema,
  listDisputesRequestSchema,
} from "../validation/disputes";
import { ANSWER_EXAMPLES, DISPUTE_ANSWER_EXAMPLES, ERROR_DESCRIPTION_EXAMPLES, NOTIFICATION_EXAMPLES, REQUEST_EXAMPLES } from "./examples";

type JsonSchema = Record<string, unknown>;

/** What each error code means; typed by the error table, so a new code cannot go undocumented. */
export const ERROR_CODE_DESCRIPTIONS: Record<ApiErrorCode, string> = {
  INVALID_API_KEY: "The Authorization header is missing or names no valid key (unknown, revoked or expired). Spec 7.",
  INVALID_MERCHANTID: "merchantid does not belong to the API key. Spec 7.",
  INVALID_PARAMETER:
    `A parameter (or the body, a header such as TraceApi or Idempotency-Key, or the path's payment id) is refused; errordescription names it and says why. Spec 7. initdynamic, mit and payout are also refused, before anything is made, when no enabled acquirer account of the merchant takes the payment: \`currency: no enabled acquirer account of this merchant accepts SEK at the processors of routing rule 1 (${DEFAULT_ROUTING[1].join(", ")})\`, or for a processor the request names, \`processor: ${DEFAULT_ROUTING[1][0]} has no enabled acquirer account of this merchant that accepts DKK\`.`,
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
  ACQUIRER_UNAVAILABLE:
    "Disputes only: the acquirer's reporting API did not answer usably (down, an error status, an unreadable answer). What was sent may not have reached it: read the dispute, then send again (beyond the spec).",
  ACQUIRER_CREDENTIALS_REFUSED:
    "Disputes only: the acquirer refused the acquirer account's reporting API credentials, so nothing was done there; the account shows them as failing until they are entered again (beyond the spec).",
};

export function jsonSchema(schema: z.ZodType, io: "input" | "output"): JsonSchema {
  const result = z.toJSONSchema(schema, {
    io,
    target: "draft-2020-12",
    unrepresentable: "any",
    override: (context) => {
      // A request field that documents what clients should send (lib/validation/documented-input.ts):
      // its schema replaces the derived one, and what the service also accepts joins the description.
      const documented = io === "input" ? documentedInputs.get(context.zodSchema as unknown as z.ZodType) : undefined;
      if (!documented) return;
      const json = context.jsonSchema as JsonSchema;
      const description = [json.description, documented.note].filter(Boolean).join(" ");
      for (const key of Object.keys(json)) delete json[key];
      Object.assign(json, structuredClone(documented.schema), description ? { description } : {});
    },
  }) as JsonSchema;
  delete result.$schema;
  const converted = constAsEnum(result) as JsonSchema;
  return io === "input" ? (defaultsInDescriptions(converted) as JsonSchema) : converted;
}

/**
 * A request field's default in its description ("Default: 900."), not as `default`: openapi-typescript
 * (defaultNonNullable, on by default) makes every field with a `default` required, so the minimal
 * request the spec allows did not compile in a generated client (newcomer review 4, N5). The field
 * stays optional (not in `required`), and the service applies the default as the description says.
 */
function defaultsInDescriptions(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(defaultsInDescriptions);
  if (!node || typeof node !== "object") return node;
  const out: JsonSchema = {};
  for (const [key, value] of Object.entries(node)) {
    if (key !== "default") out[key] = defaultsInDescriptions(value);
  }
  if ("default" in node) {
    const said = `Default: ${typeof (node as JsonSchema).default === "string" ? (node as JsonSchema).default : JSON.stringify((node as JsonSchema).default)}.`;
    out.description = [out.description, said].filter(Boolean).join(" ");
  }
  return out;
}

/**
 * `const: x` written as `enum: [x]`: the same in JSON Schema, and understood by generators that read
 * OpenAPI 3.0, which has no `const`.
 */
function constAsEnum(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(constAsEnum);
  if (!node || typeof node !== "object") return node;
  const out: JsonSchema = {};
  for (const [key, value] of Object.entries(node)) {
    if (key === "const") out.enum = [value];
    else out[key] = constAsEnum(value);
  }
  return out;
}

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });

/**
 * The servers the document names. A running service names its own public base (PUBLIC_BASE_URL,
 * and per path the interface hosts of spec 4 where they differ); without one, as in the exported
 * file and the generated client, a placeholder that resolves nowhere (RFC 2606 `.invalid`).
 */
export interface OpenApiServers {
  publicBaseUrl: string;
  apiBaseUrls?: Partial<Record<ApiHost, string>>;
}

export const OPENAPI_PLACEHOLDER_BASE_URL = "https://payments.invalid";

/** Tags group the operations by resource: generated SDKs get one class or service per tag. */
const TAGS = [
  { name: "Payment sessions", description: "Open a payment window in which the cardholder pays with the hosted card fields (spec 4.1, 4.2)." },
  { name: "MIT", description: "Merchant-initiated payments: charge the stored card data of an earlier payment, without the cardholder (spec 4.3)." },
  { name: "Follow-ups", description: "Capture, refund and void a payment (spec 4.4 to 4.6); each result arrives as an operation notification." },
  { name: "Payouts", description: "Pay money out to the card behind a payment; answered on the connection (spec 4.7)." },
  { name: "Payment details", description: "Look a payment up, with its card facts and operations (spec 4.8)." },
  { name: "Health", description: "Whether every interface of the service works (spec 4.9)." },
  {
    name: "Disputes",
    description:
      "Chargebacks and retrieval requests the acquirers report (beyond the spec): list and read them, send evidence, refute or accept before the due date. Each change also arrives as the `dispute` notification.",
  },
  { name: "Reference", description: "This document." },
  { name: "Notifications", description: "What the service POSTs to your addresses, signed as Standard Webhooks (spec 6)." },
] as const;
type Tag = (typeof TAGS)[number]["name"];

const ERROR_STATUSES = [...new Set(Object.values(API_ERROR_STATUS))].sort((a, b) => a - b);
/** Codes answered with Retry-After (lib/api/merchant-route.ts). */
const RETRY_AFTER_CODES = new Set<ApiErrorCode>(["RATE_LIMITED", "SERVICE_UNAVAILABLE"]);

function errorExample(code: ApiErrorCode) {
  return { error: code, errordescription: ERROR_DESCRIPTION_EXAMPLES[code] ?? ERROR_CODE_DESCRIPTIONS[code].split(/(?<=\.) /)[0]! };
}

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
      // The codes this status carries, for tools (tests/helpers/openapi-contract.ts checks answers
      // against it); the schema stays the one ErrorBody, so that generated clients get one error type.
      "x-error-codes": here,
      content: {
        "application/json": {
          schema: ref("ErrorBody"),
          ...(here.length === 1
            ? { example: errorExample(here[0]!) }
            : { examples: Object.fromEntries(here.map((code) => [code, { summary: code, value: errorExample(code) }])) }),
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
  description: "The payment: its paymentid, or the merchantpaymentid you gave it.",
  schema: { type: "string", pattern: "^[a-zA-Z0-9]{1,32}$" },
  example: "5f2b8c1e9d7a4e3f8b6c0a1d2e3f4a5b",
};

type SchemaName = keyof typeof REQUEST_EXAMPLES | keyof typeof ANSWER_EXAMPLES | keyof typeof DISPUTE_ANSWER_EXAMPLES;
const EXAMPLES: Record<string, unknown> = { ...REQUEST_EXAMPLES, ...ANSWER_EXAMPLES, ...DISPUTE_ANSWER_EXAMPLES, ...NOTIFICATION_EXAMPLES };

/** The refusals of a disputes call that reaches the acquirer (lib/disputes/acquirer-refusal.ts). */
const ACQUIRER_ERRORS: ApiErrorCode[] = ["ACQUIRER_UNAVAILABLE", "ACQUIRER_CREDENTIALS_REFUSED"];

const disputeIdParameter = {
  name: "disputeid",
  in: "path",
  required: true,
  description: "The dispute's id at this service (`disputeid` of the list and of the `dispute` notification).",
  schema: { type: "string", pattern: "^[a-zA-Z0-9]{1,64}$" },
  example: "dsp7Qm2xK9pL4nR8sT1v",
};

/** The disputes API (beyond the spec; issue 40). */
function disputePaths(): Record<string, Record<string, unknown>> {
  const trace = { $ref: "#/components/parameters/TraceApi" };
  const idempotency = { $ref: "#/components/parameters/IdempotencyKey" };
  return {
    "/api/disputes": {
      get: {
        operationId: "listDisputes",
        tags: ["Disputes"],
        summary: "List disputes (beyond the spec)",
        description:
          "Your disputes of the key's mode: those still to answer first (earliest due date first), then the others, newest first. Needs the read scope. Parameters travel in the query string.",
        parameters: [trace, ...queryParameters(listDisputesRequestSchema)],
        responses: { "200": ok("DisputeList", "The disputes."), ...errorResponses(COMMON_ERRORS) },
      },
    },
    "/api/disputes/{disputeid}": {
      get: {
        operationId: "getDispute",
        tags: ["Disputes"],
        summary: "Read one dispute (beyond the spec)",
        description: "Needs the read scope. Another merchant's dispute, or one of the other mode, is answered as one that does not exist.",
        parameters: [disputeIdParameter, trace],
        responses: { "200": ok("Dispute", "The dispute."), ...errorResponses(COMMON_ERRORS) },
      },
    },
    "/api/disputes/{disputeid}/evidence": {
      post: {
        operationId: "submitDisputeEvidence",
        tags: ["Disputes"],
        summary: "Send evidence files to the acquirer (beyond the spec)",
        description:
          "multipart/form-data: one or more parts named `files` (each with its file name and Content-Type) and an optional `comment`. Each file is checked against the acquirer's rules (accepted types, whose first bytes must match; size; files per dispute) before anything is stored or sent: a refusal (INVALID_PARAMETER) names the file and the rule, and nothing reaches the acquirer. A dispute that is closed or past its due date is refused, saying so. The evidence does not answer the dispute: refute it afterwards (decision). Needs the disputes scope. Body at most 12 MB.",
        parameters: [disputeIdParameter, trace, idempotency],
        requestBody: {
          required: true,
          description: "The files and the comment, as multipart/form-data.",
          content: {
            "multipart/form-data": {
              schema: {
                type: "object",
                required: ["files"],
                properties: {
                  // One binary, not an array of them: openapi-generator cannot type an array of
                  // files (it warns, "Could not compute datatypeWithEnum from *os.File"); a part may
                  // be repeated all the same, as multipart/form-data allows.
                  files: {
                    type: "string",
                    format: "binary",
                    description: "An evidence file, as a part named files; repeat the part for more files. The acquirer's rules decide the types, the size and the files per dispute (docs/integration.md, Disputes).",
                  },
                  comment: { type: "string", maxLength: 5000, description: "Sent with the evidence; the acquirer may keep it for itself." },
                  merchantid: { type: "string", description: "Your merchant id; when sent, it must be the API key's merchant." },
                },
              },
              encoding: { files: { contentType: "application/pdf, image/png, image/jpeg" } },
              example: { files: "(the bytes of receipt-10042.pdf)", comment: "Delivered 2026-11-02, signed for; receipt and tracking attached." },
            },
          },
        },
        responses: { "200": ok("DisputeEvidenceResult", "Stored and sent to the acquirer."), ...errorResponses([...POST_ERRORS, ...ACQUIRER_ERRORS]) },
      },
    },
    "/api/disputes/{disputeid}/decision": {
      post: {
        operationId: "decideDispute",
        tags: ["Disputes"],
        summary: "Refute or accept a dispute (beyond the spec)",
        description:
          "Sent to the acquirer at once, after reading the dispute there fresh: refused (INVALID_PARAMETER, saying why) when it is closed, past its due date, or the acquirer no longer offers that answer. Final at the acquirer. Needs the disputes scope.",
        parameters: [disputeIdParameter, trace, idempotency],
        requestBody: {
          required: true,
          description: "The decision, as JSON.",
          content: { "application/json": { schema: ref("DisputeDecisionRequest"), example: REQUEST_EXAMPLES.DisputeDecisionRequest } },
        },
        responses: {
          "200": {
            description: "The dispute as it stands after the answer.",
            headers: { TraceApi: { $ref: "#/components/headers/TraceApi" } },
            content: { "application/json": { schema: ref("Dispute"), example: DISPUTE_ANSWER_EXAMPLES.DisputeDecided } },
          },
          ...errorResponses([...POST_ERRORS, ...ACQUIRER_ERRORS]),
        },
      },
    },
  };
}

function ok(schemaName: SchemaName, description: string) {
  return {
    description,
    headers: { TraceApi: { $ref: "#/components/headers/TraceApi" } },
    content: { "application/json": { schema: ref(schemaName), example: EXAMPLES[schemaName] } },
  };
}

/** The answer of a path that serves this document as OpenAPI `version` (`label` in its words). */
function documentResponses(label: string, version: string) {
  return {
    "200": {
      description: `OpenAPI ${label}`,
      content: {
        "application/json": {
          schema: { type: "object", description: `An OpenAPI ${label} document.` },
          example: { openapi: version, info: { title: "Card Payment Service merchant API", version: "1" }, paths: {} },
        },
      },
    },
  };
}

function postOperation(options: {
  operationId: string;
  tag: Tag;
  summary: string;
  description: string;
  body: keyof typeof REQUEST_EXAMPLES;
  /** False where the service reads an empty body as {} and every field is optional (capture, refund, void). */
  bodyRequired: boolean;
  answer: SchemaName;
  answerDescription: string;
  path?: boolean;
}) {
  return {
    post: {
      operationId: options.operationId,
      tags: [options.tag],
      summary: options.summary,
      description: options.description,
      parameters: [
        ...(options.path ? [paymentIdParameter] : []),
        { $ref: "#/components/parameters/TraceApi" },
        { $ref: "#/components/parameters/IdempotencyKey" },
      ],
      requestBody: {
        required: options.bodyRequired,
        description: options.bodyRequired ? "The request, as JSON." : "The request, as JSON; may be left out (every field is optional).",
        content: { "application/json": { schema: ref(options.body), example: REQUEST_EXAMPLES[options.body] } },
      },
      responses: { "200": ok(options.answer, options.answerDescription), ...errorResponses(POST_ERRORS) },
    },
  };
}

/**
 * The lookup's parameters travel in the query string: the spec does not show how its GET carries
 * them, and content in a GET has no generally defined meaning (RFC 9110, 9.3.1), so clients and
 * proxies may drop it.
 */
function queryParameters(schema: z.ZodType): unknown[] {
  const object = jsonSchema(schema, "input") as { properties?: Record<string, JsonSchema>; required?: string[] };
  return Object.entries(object.properties ?? {}).map(([name, { description, ...property }]) => ({
    name,
    in: "query",
    required: object.required?.includes(name) ?? false,
    description,
    schema: property,
  }));
}

const SIGNATURE_HEADERS = {
  "webhook-id": {
    required: true,
    description: "Unique id of the notification; the same on every retry of it (Standard Webhooks).",
    schema: { type: "string" },
    example: "msg_2f1e0d9c8b7a6f5e4d3c2b1a0f9e8d7c",
  },
  "webhook-timestamp": {
    required: true,
    description: "Unix seconds when this attempt was signed.",
    schema: { type: "string", pattern: "^[0-9]+$" },
    example: "1772460309",
  },
  "webhook-signature": {
    required: true,
    description: 'v1,<base64 HMAC-SHA256 of "<webhook-id>.<webhook-timestamp>.<raw body>"> with the merchant\'s whsec_ secret.',
    schema: { type: "string" },
    example: "v1,K5oZfzN95Z9UVu1EsfQmfVNQhnkZ2pj9o9NDN/H/pI4=",
  },
};

function webhook(options: {
  operationId: string;
  summary: string;
  description: string;
  schema: keyof typeof NOTIFICATION_EXAMPLES | "PaymentRecord";
  kinds: string[];
}) {
  const kindHeader = {
    name: NOTIFICATION_KIND_HEADER,
    in: "header",
    required: true,
    description:
      "What the notification reports, so it can be routed before the body is parsed (beyond the spec; the body stays the spec's).",
    schema: { type: "string", enum: options.kinds },
    example: options.kinds[0],
  };
  const modeHeader = {
    name: NOTIFICATION_MODE_HEADER,
    in: "header",
    required: true,
    description:
      "test or live: the mode of the key that made what the notification reports (beyond the spec; also the body's `mode`). Test notifications never report money that moved.",
    schema: { type: "string", enum: ["test", "live"] },
    example: "live",
  };
  return {
    post: {
      operationId: options.operationId,
      tags: ["Notifications"],
      summary: options.summary,
      description: `${options.description}${options.description ? "\n\n" : ""}Acknowledge with HTTP 200; anything else is retried on the schedule of spec 6.2 (at once, 3 × after 3 s, 3 × after 1 h, once after 24 h).`,
      parameters: [kindHeader, modeHeader, ...Object.entries(SIGNATURE_HEADERS).map(([name, header]) => ({ name, in: "header", ...header }))],
      requestBody: {
        required: true,
        description: "The notification, as JSON.",
        content: { "application/json": { schema: ref(options.schema), example: EXAMPLES[options.schema] } },
      },
      responses: { "200": { description: "Received. Any other answer, or none within the attempt's time-out, is retried." } },
    },
  };
}

/** Which interface host of spec 4 serves each path (the document's servers per path). */
const PATH_HOSTS: Record<string, ApiHost> = {
  "/api/initdynamic": "cit",
  "/api/mit": "mit",
  "/api/{paymentid}/capture": "capture",
  "/api/{paymentid}/refund": "refund",
  // Spec 4.6 puts void on the refund host.
  "/api/{paymentid}/void": "refund",
  "/api/{paymentid}/payout": "payout",
  "/api/{paymentid}/payment": "payment",
  "/api/health": "health",
};

const cached = new Map<string, Record<string, unknown>>();

/** The document; `servers` names the running service's addresses (see OpenApiServers). */
export function buildOpenApiDocument(servers?: OpenApiServers): Record<string, unknown> {
  const key = JSON.stringify(servers ?? null);
  let document = cached.get(key);
  if (!document) {
    document = build(servers);
    cached.set(key, document);
  }
  return document;
}

function build(servers: OpenApiServers | undefined): Record<string, unknown> {
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
    DisputeNotification: jsonSchema(disputeNotificationSchema, "output"),
    TestNotification: jsonSchema(testNotificationSchema, "output"),
    Dispute: jsonSchema(disputeSchema, "output"),
    DisputeList: jsonSchema(disputeListResponseSchema, "output"),
    DisputeEvidenceResult: jsonSchema(disputeEvidenceResponseSchema, "output"),
    DisputeDecisionRequest: jsonSchema(disputeDecisionRequestSchema, "input"),
  };
  const SCHEMA_DESCRIPTIONS: Record<string, string> = {
    InitDynamicRequest: "Opens a payment window (spec 4.1).",
    PaymentSession: "The payment window: where the hosted fields are and which script mounts them (spec 2.1).",
    MitRequest: "Charges the stored card data of an earlier payment (spec 4.3).",
    OperationRequest: "A capture, refund or void (spec 4.4 to 4.6).",
    PayoutRequest: "Pays money out to the card behind a payment (spec 4.7).",
    PayoutResult: "The payout's result (spec 4.7).",
    Accepted: "The request was accepted; its result arrives as a notification carrying this responseid.",
    Health: "One entry per interface host, and one member for each of the back-office and website hosts (spec 4.9).",
    ErrorBody: "Every refusal (spec 7).",
    CompletionNotification: "The end of a payment in a payment window (spec 6.2).",
    MitNotification: "The result of an MIT authorization (spec 6.3).",
    OperationNotification: "The result of a capture, refund, void or payout (spec 6.4).",
    PaymentRecord: "A payment with its card facts and operations (spec 2.2), with the lookup's responseid (spec 6.5).",
    LifecycleNotification:
      "The card behind a payment was updated by its issuer (spec 6.6), or (beyond the spec) the cardholder stopped merchant-initiated payments on it (`change`).",
    DisputeNotification: "A dispute the acquirer reported was opened, changed, won or lost (beyond the spec; issue 40).",
    TestNotification: "A test sent from the back office (beyond the spec).",
    Dispute: "A dispute the acquirer reported, with your answer through this service (beyond the spec).",
    DisputeList: "Your disputes (beyond the spec).",
    DisputeEvidenceResult: "Evidence stored and sent to the acquirer (beyond the spec).",
    DisputeDecisionRequest: "Refute or accept a dispute (beyond the spec).",
  };
  for (const [name, schema] of Object.entries(schemas)) schema.description ??= SCHEMA_DESCRIPTIONS[name];
  const errorTable = (Object.keys(API_ERROR_STATUS) as ApiErrorCode[])
    .map((code) => `| ${code} | ${API_ERROR_STATUS[code]} | ${ERROR_CODE_DESCRIPTIONS[code]} |`)
    .join("\n");
  const hostServers = (path: string) => {
    const host = PATH_HOSTS[path];
    const url = host && servers?.apiBaseUrls?.[host];
    return url && url !== servers.publicBaseUrl ? { servers: [{ url, description: `The ${host} interface host (spec 4).` }] } : {};
  };
  const paths: Record<string, Record<string, unknown>> = {
    "/api/initdynamic": postOperation({
      operationId: "initDynamic",
      tag: "Payment sessions",
      summary: "Open a payment window (spec 4.1)",
      description:
        "Creates a payment session for the hosted fields. Include `dfurlscriptinclude` in the checkout page; the result arrives as the completion notification (webhook `completionNotification`).",
      body: "InitDynamicRequest",
      bodyRequired: true,
      answer: "PaymentSession",
      answerDescription: "The payment session (spec 2.1).",
    }),
    "/api/mit": postOperation({
      operationId: "authorizeMit",
      tag: "MIT",
      summary: "Charge stored card data (spec 4.3)",
      description: "Asynchronous: the result arrives as the MIT notification (webhook `mitNotification`).",
      body: "MitRequest",
      bodyRequired: true,
      answer: "Accepted",
      answerDescription: "Accepted; the notification carries the same responseid.",
    }),
    ...Object.fromEntries(
      FOLLOW_UP_TYPES.map((verb) => [
        `/api/{paymentid}/${verb}`,
        postOperation({
          operationId: `${verb}Payment`,
          tag: "Follow-ups",
          summary: `${verb[0]!.toUpperCase()}${verb.slice(1)} a payment (spec ${FOLLOW_UP_KINDS[verb].specSection})`,
          description:
            "Asynchronous: the result arrives as the operation notification (webhook `operationNotification`). An omitted amount means all that is left; the body may be left out.",
          body: "OperationRequest",
          bodyRequired: false,
          answer: "Accepted",
          answerDescription: "Accepted; the notification carries the same responseid.",
          path: true,
        }),
      ]),
    ),
    "/api/{paymentid}/payout": postOperation({
      operationId: "payout",
      tag: "Payouts",
      summary: "Pay out to the card behind a payment (spec 4.7)",
      description:
        "Synchronous: the result is the answer. When the acquirer's answer is unknown (a time-out), status is `pending`: the money may have left, so do not pay out again; the final result (approved, declined or failed) arrives as the operation notification with the same responseid. A payout whose result could reach nobody (no notificationurl and no configured address) is refused.",
      body: "PayoutRequest",
      bodyRequired: true,
      answer: "PayoutResult",
      answerDescription: "The payout's result, or `pending` until the acquirer's answer is known.",
      path: true,
    }),
    "/api/{paymentid}/payment": {
      get: {
        operationId: "getPaymentDetails",
        tags: ["Payment details"],
        summary: "Look up a payment (spec 4.8)",
        description:
          "Asynchronous: the payment record (spec 2.2) arrives as the payment details notification. Parameters travel in the query string. With sync=1 (beyond the spec) the record is the answer and no notification is sent.",
        parameters: [paymentIdParameter, { $ref: "#/components/parameters/TraceApi" }, ...queryParameters(paymentDetailsRequestSchema)],
        responses: {
          "200": {
            description: "Accepted (the notification carries the same responseid); with sync=1, the payment record itself.",
            headers: { TraceApi: { $ref: "#/components/headers/TraceApi" } },
            content: {
              "application/json": {
                schema: { oneOf: [ref("Accepted"), ref("PaymentRecord")] },
                examples: {
                  accepted: { summary: "sync=0 (the spec's lookup): accepted", value: ANSWER_EXAMPLES.Accepted },
                  record: { summary: "sync=1: the payment record", value: ANSWER_EXAMPLES.PaymentRecord },
                },
              },
            },
          },
          ...errorResponses(COMMON_ERRORS),
        },
      },
    },
    ...disputePaths(),
    "/api/health": {
      get: {
        operationId: "health",
        tags: ["Health"],
        summary: "Health of every interface (spec 4.9)",
        description: "Needs no API key. Answers 503 when a part is in error, so that a load balancer can act on the status alone.",
        security: [],
        responses: {
          "200": {
            description: "Every part is ok.",
            headers: { TraceApi: { $ref: "#/components/headers/TraceApi" } },
            content: { "application/json": { schema: ref("Health"), example: ANSWER_EXAMPLES.Health } },
          },
          "503": {
            description: "A part is in error; `msg` says which.",
            headers: { TraceApi: { $ref: "#/components/headers/TraceApi" } },
            content: { "application/json": { schema: ref("Health"), example: ANSWER_EXAMPLES.HealthError } },
          },
        },
      },
    },
    "/api/openapi.json": {
      get: {
        operationId: "openApiDocument",
        tags: ["Reference"],
        summary: "This document",
        description: "The OpenAPI 3.1 document of the merchant API; needs no API key. Rendered for people at /reference.",
        security: [],
        responses: documentResponses("3.1", "3.1.0"),
      },
    },
    "/api/openapi-3.0.json": {
      get: {
        operationId: "openApiDocument30",
        tags: ["Reference"],
        summary: "This document in OpenAPI 3.0",
        description:
          "The same document in OpenAPI 3.0.3, for SDK generators that read 3.0 (openapi-generator: `-i $BASE/api/openapi-3.0.json`); needs no API key. Without webhooks, which 3.0 lacks: the notification bodies are schemas under components.",
        security: [],
        responses: documentResponses("3.0.3", "3.0.3"),
      },
    },
  };
  for (const path of Object.keys(paths)) Object.assign(paths[path]!, hostServers(path));
  return {
    openapi: "3.1.0",
    info: {
      title: "Card Payment Service merchant API",
      version: "1",
      description: [
        "Initialize hosted-field payment windows, charge stored cards, capture, refund, void, pay out and look up payments.",
        "Asynchronous requests answer with a `responseid` and report their result by a signed notification (see webhooks).",
        "",
        "Amounts are integers of minor units (2.50 DKK is 250). Where the service reads input more leniently than the schema states (an amount as a digit string, a lower-case currency or set3ds), the field's description says so; clients should send what the schema states.",
        "",
        "Every refusal has the body `{ error, errordescription }`:",
        "",
        "| error | HTTP status | meaning |",
        "|---|---|---|",
        errorTable,
      ].join("\n"),
    },
    servers: servers
      ? [{ url: servers.publicBaseUrl, description: "This service (its PUBLIC_BASE_URL)." }]
      : [
          {
            url: OPENAPI_PLACEHOLDER_BASE_URL,
            description:
              "Placeholder: put your deployment's PUBLIC_BASE_URL here. The document a running service serves at /api/openapi.json names its own address.",
          },
        ],
    tags: TAGS,
    security: [{ basicAuth: [] }],
    paths,
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
        description: "Sent to the request's notificationurl, else the merchant's configured address.",
        schema: "MitNotification",
        kinds: ["mit"],
      }),
      operationNotification: webhook({
        operationId: "operationNotification",
        summary: "Result of a capture, refund, void or payout (spec 6.4)",
        description:
          "Sent to the request's notificationurl where given, else the payment's, else the configured address. A payout's final result is always notified, also when it was answered at once.",
        schema: "OperationNotification",
        kinds: [...FOLLOW_UP_TYPES.map((type) => FOLLOW_UP_KINDS[type].notificationKind), "payout", "operation"],
      }),
      paymentDetailsNotification: webhook({
        operationId: "paymentDetailsNotification",
        summary: "The payment record asked for by a lookup (spec 6.5)",
        description: "Sent to the lookup's notificationurl, else the merchant's configured address.",
        schema: "PaymentRecord",
        kinds: ["payment-details"],
      }),
      lifecycleNotification: webhook({
        operationId: "lifecycleNotification",
        summary: "The card behind a payment was updated, or its MITs stopped (spec 6.6)",
        description: "Sent to the life-cycle address configured in the back office.",
        schema: "LifecycleNotification",
        kinds: ["lifecycle"],
      }),
      disputeNotification: webhook({
        operationId: "disputeNotification",
        summary: "A dispute (chargeback, retrieval request) was opened, changed, won or lost (beyond the spec)",
        description:
          "Imported from the acquirer's reporting API and sent to the configured default address (the hosted integration's where the payment came through one), else the payment's own notification address. Signed and retried like every other notification; one per change.",
        schema: "DisputeNotification",
        kinds: ["dispute"],
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
        // One scheme, so that generated clients get one way to authenticate. The spec's own form
        // (the key itself after "Basic") is accepted too and said so here
        // (docs/decisions/0084-the-openapi-document-as-sdk-generator-input.md).
        basicAuth: {
          type: "http",
          scheme: "basic",
          description:
            'HTTP Basic with the API key as the user name and an empty password (`curl -u "$API_KEY:"`), as every HTTP client and generated SDK sends it. The spec\'s own form, `Authorization: Basic <API_KEY>` with the key itself instead of its Base64, is accepted too (spec 5).',
        },
      },
      parameters: {
        TraceApi: {
          name: "TraceApi",
          in: "header",
          required: false,
          description: "Your trace id (a UUID is recommended), stored with the request and echoed in the answer (spec 5).",
          schema: { type: "string", pattern: "^[\\x21-\\x7e]{1,128}$" },
          example: "3f0c7f3e-6a59-4c1e-9a57-0d1b2c3d4e5f",
        },
        IdempotencyKey: {
          name: "Idempotency-Key",
          in: "header",
          required: false,
          description:
            "Makes a POST safe to retry: a repeat with the same key and parameters within 24 hours gets the first answer again and does nothing more; with other parameters it is refused (INVALID_PARAMETER).",
          schema: { type: "string", minLength: 1, maxLength: 255 },
          example: "order10042-capture-1",
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
}
