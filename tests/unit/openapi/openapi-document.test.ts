// The published OpenAPI document: valid OpenAPI 3.1, covering every merchant API route and every
// error code the service answers.
import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { Validator } from "@seriousme/openapi-schema-validator";
import { Ajv2020 } from "ajv/dist/2020.js";
import addFormatsModule from "ajv-formats";
import { describe, expect, it } from "vitest";
import type { z } from "zod";
import { API_ERROR_STATUS } from "@/lib/errors";
import { buildOpenApiDocument, OPENAPI_PLACEHOLDER_BASE_URL } from "@/lib/openapi/build-openapi-document";
import { REQUEST_EXAMPLES } from "@/lib/openapi/examples";
import { schemaTo30, toOpenApi30 } from "@/lib/openapi/openapi-3-0";
import { initSessionRequestSchema } from "@/lib/validation/init-session";
import { mitRequestSchema } from "@/lib/validation/mit";
import { operationRequestSchema } from "@/lib/validation/operation";
import { payoutRequestSchema } from "@/lib/validation/payout";
import { disputeDecisionRequestSchema } from "@/lib/validation/disputes";
import { assertAnswerMatchesOpenApi, assertNotificationMatchesOpenApi } from "../../helpers/openapi-contract";

// ajv-formats is CommonJS; its default export arrives one level down under some loaders.
const addFormats = ((addFormatsModule as unknown as { default?: typeof addFormatsModule }).default ?? addFormatsModule) as typeof addFormatsModule;

const ROOT = path.resolve(import.meta.dirname, "../../..");

interface Document {
  paths: Record<string, Record<string, { responses: Record<string, unknown> }>>;
  webhooks: Record<string, unknown>;
  components: { schemas: Record<string, unknown> };
}
const document = buildOpenApiDocument() as unknown as Document;

function routeFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((entry) => {
    const full = path.join(dir, entry);
    if (statSync(full).isDirectory()) return routeFiles(full);
    return entry === "route.ts" ? [full] : [];
  });
}

describe("the OpenAPI document", () => {
  it("is valid OpenAPI 3.1", { timeout: 60_000 }, async () => {
    const result = await new Validator().validate(structuredClone(document) as never);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    expect((document as unknown as { openapi: string }).openapi).toBe("3.1.0");
  });

  it("describes every route served through the merchant API wrapper, with its methods", () => {
    // merchantRoute itself, or followUpRoute (app/api/[paymentid]/follow-up-route.ts), which is it for capture, refund and void.
    const wrapped = /export const (GET|POST|PUT|PATCH|DELETE) = (?:merchantRoute|followUpRoute)\(/g;
    const merchantRoutes = routeFiles(path.join(ROOT, "app/api")).filter((file) => new RegExp(wrapped.source).test(readFileSync(file, "utf8")));
    expect(merchantRoutes.length).toBeGreaterThanOrEqual(7);
    for (const file of merchantRoutes) {
      const template = `/${path.relative(path.join(ROOT, "app"), path.dirname(file)).split(path.sep).join("/")}`.replace(
        /\[([^\]]+)\]/g,
        "{$1}",
      );
      const methods = [...readFileSync(file, "utf8").matchAll(wrapped)].map((m) =>
        m[1]!.toLowerCase(),
      );
      expect(document.paths[template], template).toBeDefined();
      for (const method of methods) expect(document.paths[template]![method], `${method} ${template}`).toBeDefined();
    }
  });

  it("lists every error code with its HTTP status", () => {
    const codes = Object.entries(API_ERROR_STATUS);
    const capture = document.paths["/api/{paymentid}/capture"]!.post!.responses as Record<string, { description: string }>;
    const table = (document as unknown as { info: { description: string } }).info.description;
    for (const [code, status] of codes) expect(table, code).toContain(`| ${code} | ${status} |`);
    // Each operation lists the refusals it can give, with their statuses.
    for (const code of [
      "INVALID_API_KEY",
      "INVALID_MERCHANTID",
      "INVALID_PARAMETER",
      "IDEMPOTENCY_IN_PROGRESS",
      "PAYLOAD_TOO_LARGE",
      "RATE_LIMITED",
      "INTERNAL_ERROR",
      "SERVICE_UNAVAILABLE",
    ] as const) {
      expect(capture[String(API_ERROR_STATUS[code])]?.description, code).toContain(code);
    }
    // The answers that ask the merchant to wait name the header that says how long.
    for (const status of ["429", "503"]) expect(JSON.stringify(capture[status]), status).toContain("Retry-After");
    expect(JSON.stringify(document.components.schemas.ErrorBody)).toContain("INVALID_MERCHANTID");
  });

  it("has a webhook for every notification the service sends", () => {
    expect(Object.keys(document.webhooks).sort()).toEqual(
      [
        "completionNotification",
        "disputeNotification",
        "lifecycleNotification",
        "mitNotification",
        "operationNotification",
        "paymentDetailsNotification",
        "testNotification",
      ].sort(),
    );
  });
});

describe("the contract checks used by the integration tests", () => {
  it("refuse an answer that breaks the document, and accept one that keeps it", () => {
    expect(() => assertAnswerMatchesOpenApi("POST", "/api/abc/capture", 200, { responseid: "r1" })).not.toThrow();
    expect(() => assertAnswerMatchesOpenApi("POST", "/api/abc/capture", 200, { id: "r1" })).toThrow(/does not match/);
    expect(() =>
      assertAnswerMatchesOpenApi("POST", "/api/abc/capture", 400, { error: "INVALID_PARAMETER", errordescription: "amount: x" }),
    ).not.toThrow();
    expect(() => assertAnswerMatchesOpenApi("POST", "/api/abc/capture", 400, { error: "NOPE", errordescription: "x" })).toThrow();
    expect(() => assertAnswerMatchesOpenApi("POST", "/api/abc/capture", 418, {})).toThrow(/does not list/);
  });

  it("refuse a notification body that is no webhook of the document", () => {
    expect(() => assertNotificationMatchesOpenApi({ paymentid: "p", merchantpaymentid: "", change: "pan", mode: "live" }, "lifecycle")).not.toThrow();
    // Every notification says its mode (beyond the spec): a body without it is no webhook of the document.
    expect(() => assertNotificationMatchesOpenApi({ paymentid: "p", merchantpaymentid: "", change: "pan" }, "lifecycle")).toThrow(/matches no webhook/);
    expect(() => assertNotificationMatchesOpenApi({ paymentid: "p", merchantpaymentid: "", change: "renamed", mode: "live" }, "lifecycle")).toThrow(
      /matches no webhook/,
    );
    expect(() => assertNotificationMatchesOpenApi({ paymentid: 1 })).toThrow(/matches no webhook/);
  });
});

type Json = Record<string, unknown>;
const documentJson = document as unknown as Json & {
  servers: Array<{ url: string }>;
  tags: Array<{ name: string; description?: string }>;
  security: unknown[];
  components: { schemas: Record<string, Json>; securitySchemes: Record<string, Json>; parameters: Record<string, Json>; headers: Record<string, Json> };
};
type Operation = Json & { tags?: string[]; requestBody?: Json & { content: Record<string, Json> }; responses: Record<string, Json>; parameters?: Json[] };

/** Every operation of the document, paths and webhooks, with a name for messages. */
function operations(doc: Json): Array<[string, Operation]> {
  const groups = [doc.paths, doc.webhooks] as Array<Record<string, Record<string, Operation>>>;
  return groups.flatMap((group) =>
    Object.entries(group ?? {}).flatMap(([path, item]) =>
      Object.entries(item)
        .filter(([method]) => ["get", "post", "put", "patch", "delete"].includes(method))
        .map(([method, operation]): [string, Operation] => [`${method} ${path}`, operation]),
    ),
  );
}

/**
 * Every field of every schema (properties at any depth, items, alternatives, additionalProperties)
 * and every parameter and header that has no description: what a generated SDK would give no docstring.
 */
function fieldsWithoutDescription(doc: Json): string[] {
  const missing: string[] = [];
  const walk = (schema: unknown, where: string) => {
    if (!schema || typeof schema !== "object" || "$ref" in schema) return;
    const node = schema as Json;
    for (const [name, property] of Object.entries((node.properties ?? {}) as Record<string, Json>)) {
      if (!property.$ref && !(typeof property.description === "string" && property.description.trim())) missing.push(`${where}.${name}`);
      walk(property, `${where}.${name}`);
    }
    if (node.items) walk(node.items, `${where}[]`);
    if (node.additionalProperties && typeof node.additionalProperties === "object") {
      const extra = node.additionalProperties as Json;
      if (!extra.$ref && !extra.description) missing.push(`${where}.*`);
      walk(extra, `${where}.*`);
    }
    for (const key of ["anyOf", "oneOf", "allOf"]) for (const [index, branch] of ((node[key] ?? []) as Json[]).entries()) walk(branch, `${where}|${key}${index}`);
  };
  const components = doc.components as { schemas: Record<string, Json>; parameters: Record<string, Json>; headers: Record<string, Json> };
  for (const [name, schema] of Object.entries(components.schemas)) {
    if (!schema.description) missing.push(name);
    walk(schema, name);
  }
  for (const [name, parameter] of Object.entries({ ...components.parameters, ...components.headers })) if (!parameter.description) missing.push(name);
  for (const [name, operation] of operations(doc)) {
    for (const parameter of operation.parameters ?? []) {
      if (!parameter.$ref && !parameter.description) missing.push(`${name} parameter ${String(parameter.name)}`);
      walk(parameter.schema, `${name} parameter ${String(parameter.name)}`);
    }
  }
  return missing;
}

/** Every request body and answer with JSON content, with its examples. */
function mediaTypes(doc: Json): Array<{ where: string; schema: Json; examples: unknown[] }> {
  return operations(doc).flatMap(([name, operation]) => {
    const bodies: Array<[string, Json]> = [
      // JSON, or the one other media type a request takes (dispute evidence: multipart/form-data).
      ...(operation.requestBody
        ? [[`${name} request`, operation.requestBody.content["application/json"] ?? Object.values(operation.requestBody.content)[0]!] as [string, Json]]
        : []),
      ...Object.entries(operation.responses)
        .filter(([, response]) => (response.content as Record<string, Json> | undefined)?.["application/json"])
        .map(([status, response]): [string, Json] => [`${name} ${status}`, (response.content as Record<string, Json>)["application/json"]!]),
    ];
    return bodies.map(([where, media]) => ({
      where,
      schema: media.schema as Json,
      examples: [
        ...("example" in media ? [media.example] : []),
        ...Object.values((media.examples ?? {}) as Record<string, { value: unknown }>).map((example) => example.value),
      ],
    }));
  });
}

describe("the OpenAPI document as input for SDK generators", () => {
  it("names an absolute server: a placeholder when exported, the service's own addresses when served", () => {
    expect(documentJson.servers).toEqual([{ url: OPENAPI_PLACEHOLDER_BASE_URL, description: expect.stringContaining("PUBLIC_BASE_URL") }]);
    expect(new URL(OPENAPI_PLACEHOLDER_BASE_URL).hostname.endsWith(".invalid")).toBe(true);

    const served = buildOpenApiDocument({
      publicBaseUrl: "https://pay.shop.example",
      apiBaseUrls: { cit: "https://pay.shop.example", mit: "https://mit.shop.example", refund: "https://refund.shop.example" },
    }) as unknown as Json & { servers: unknown; paths: Record<string, Json> };
    expect(served.servers).toEqual([{ url: "https://pay.shop.example", description: expect.any(String) }]);
    // The interface hosts of spec 4 that differ from the public base are named per path; void is on the refund host.
    expect(served.paths["/api/mit"]!.servers).toEqual([{ url: "https://mit.shop.example", description: expect.any(String) }]);
    expect(served.paths["/api/{paymentid}/void"]!.servers).toEqual([{ url: "https://refund.shop.example", description: expect.any(String) }]);
    expect(served.paths["/api/initdynamic"]!.servers).toBeUndefined();
    expect(served.paths["/api/{paymentid}/capture"]!.servers).toBeUndefined();
  });

  it("has exactly one security scheme, required by every merchant operation and not by health or this document", () => {
    expect(Object.keys(documentJson.components.securitySchemes)).toEqual(["basicAuth"]);
    expect(documentJson.security).toEqual([{ basicAuth: [] }]);
    for (const [name, operation] of operations(documentJson)) {
      if (name === "get /api/health" || name === "get /api/openapi.json" || name === "get /api/openapi-3.0.json") expect(operation.security, name).toEqual([]);
      else if (!name.includes("Notification")) expect(operation.security, name).toBeUndefined();
    }
  });

  it("tags every operation with one resource tag that is declared and described", () => {
    const declared = new Map(documentJson.tags.map((tag) => [tag.name, tag.description]));
    for (const [name, operation] of operations(documentJson)) {
      expect(operation.tags, name).toHaveLength(1);
      expect(declared.get(operation.tags![0]!), name).toBeTruthy();
    }
    const used = new Set(operations(documentJson).map(([, operation]) => operation.tags![0]));
    expect([...declared.keys()].filter((tag) => !used.has(tag))).toEqual([]);
  });

  it("describes every field, parameter and header", () => {
    expect(fieldsWithoutDescription(documentJson)).toEqual([]);
  });

  it("notices a field without a description (the check above can fail)", () => {
    const copy = structuredClone(documentJson) as unknown as { components: { schemas: Record<string, Json & { properties: Record<string, Json> }> } };
    copy.components.schemas.MitRequest!.properties.newfield = { type: "string" };
    delete (copy.components.schemas.PaymentRecord!.properties.customer!.properties as Record<string, Json>).email!.description;
    expect(fieldsWithoutDescription(copy as unknown as Json)).toEqual(["MitRequest.newfield", "PaymentRecord.customer.email"]);
  });

  it("has an example for every request and answer, each valid against its schema", { timeout: 60_000 }, () => {
    const ajv = new Ajv2020({ strict: false, allErrors: true });
    addFormats(ajv);
    ajv.addSchema(structuredClone(documentJson), "doc");
    const bodies = mediaTypes(documentJson);
    expect(bodies.length).toBeGreaterThan(40);
    for (const { where, schema, examples } of bodies) {
      expect(examples.length, `${where} has no example`).toBeGreaterThan(0);
      const validate = ajv.compile(rebase(schema));
      for (const example of examples) expect(validate(example) ? [] : validate.errors, where).toEqual([]);
    }
  });

  it("shows request examples the service accepts", () => {
    const parsers: Record<keyof typeof REQUEST_EXAMPLES, z.ZodType> = {
      InitDynamicRequest: initSessionRequestSchema,
      MitRequest: mitRequestSchema,
      OperationRequest: operationRequestSchema,
      PayoutRequest: payoutRequestSchema,
      DisputeDecisionRequest: disputeDecisionRequestSchema,
    };
    for (const [name, example] of Object.entries(REQUEST_EXAMPLES)) {
      expect(parsers[name as keyof typeof REQUEST_EXAMPLES].safeParse(example).error, name).toBeUndefined();
    }
  });

  it("states the rules the service enforces as enums, patterns and bounds", () => {
    const init = documentJson.components.schemas.InitDynamicRequest!.properties as Record<string, Json>;
    expect(init.set3ds).toMatchObject({ type: "string", enum: ["SKIP_3DS", "FORCE_3DS", "FALLBACK_3DS"] });
    expect(init.set3ds!.description).toMatch(/Default: FORCE_3DS\.$/);
    expect(init.instantcapture).toMatchObject({ type: "integer", enum: [0, 1, 2] });
    expect(init.instantcapture!.description).toMatch(/Default: 0\./);
    expect(init.instantcapture!.description).toMatch(/2: capture at once, and keep the authorization if the capture fails/);
    expect(init.rule).toMatchObject({ type: "integer", enum: [1, 2] });
    expect(init.timeout).toMatchObject({ type: "integer", minimum: 1, maximum: 1200 });
    expect(init.timeout!.description).toMatch(/Default: 900\./);
    expect(init.processor).toMatchObject({ type: "array", uniqueItems: true, items: { enum: ["finaro", "clearhaus", "bambora"] } });
    for (const id of ["merchantpaymentid", "newmerchantpaymentid", "paymentid"]) expect(init[id], id).toMatchObject({ pattern: "^[a-zA-Z0-9]{1,32}$" });
    for (const name of ["InitDynamicRequest", "MitRequest", "PayoutRequest"]) {
      const properties = documentJson.components.schemas[name]!.properties as Record<string, Json>;
      expect(properties.currency, name).toMatchObject({ type: "string", pattern: "^[A-Z]{3}$" });
    }
    // What the schema states, the service refuses when broken.
    const refused = (input: Json) => initSessionRequestSchema.safeParse({ merchantid: "m", amount: 100, currency: "DKK", ...input }).success === false;
    expect(refused({ set3ds: "NEVER" })).toBe(true);
    expect(refused({ instantcapture: 3 })).toBe(true);
    expect(refused({ timeout: 0 })).toBe(true);
    expect(refused({ timeout: 1201 })).toBe(true);
    expect(refused({ currency: "XYZ" })).toBe(true);
    expect(refused({ processor: ["finaro", "finaro"] })).toBe(true);
    expect(refused({ merchantpaymentid: "has space" })).toBe(true);
    expect(refused({ timeout: 1, instantcapture: 2 })).toBe(false);
  });

  it("types amounts as integers, and documents the digit string the service also reads as leniency", () => {
    const amounts = [
      ["InitDynamicRequest", 0],
      ["MitRequest", 1],
      ["OperationRequest", 1],
      ["PayoutRequest", 1],
    ] as const;
    for (const [name, minimum] of amounts) {
      const amount = (documentJson.components.schemas[name]!.properties as Record<string, Json>).amount!;
      expect(amount, name).toMatchObject({ type: "integer", minimum, maximum: 999_999_999_999 });
      expect(amount.anyOf, name).toBeUndefined();
      expect(amount.description, name).toMatch(/Leniency: a string of 1 to 12 digits/);
    }
    // The leniency is real: the service reads "250" as 250 and refuses what is not digits.
    expect(operationRequestSchema.parse({ amount: "250" }).amount).toBe(250n);
    expect(operationRequestSchema.safeParse({ amount: "2.50" }).success).toBe(false);
    expect(initSessionRequestSchema.parse({ merchantid: "m", amount: 100, currency: "dkk", set3ds: "skip_3ds", processor: "finaro" })).toMatchObject({
      currency: "DKK",
      set3ds: "SKIP_3DS",
      processor: ["finaro"],
    });
  });

  it("marks the request body required exactly where an empty body is refused", () => {
    const required = Object.fromEntries(
      operations(documentJson)
        .filter(([name, operation]) => operation.requestBody && !name.includes("Notification"))
        .map(([name, operation]) => [name, operation.requestBody!.required]),
    );
    expect(required).toEqual({
      "post /api/initdynamic": true,
      "post /api/mit": true,
      "post /api/{paymentid}/capture": false,
      "post /api/{paymentid}/refund": false,
      "post /api/{paymentid}/void": false,
      "post /api/{paymentid}/payout": true,
      "post /api/disputes/{disputeid}/evidence": true,
      "post /api/disputes/{disputeid}/decision": true,
    });
    // The service reads an empty body as {} (lib/api/merchant-route.ts): accepted where every field is optional.
    expect(operationRequestSchema.safeParse({}).success).toBe(true);
    for (const schema of [initSessionRequestSchema, mitRequestSchema, payoutRequestSchema, disputeDecisionRequestSchema]) expect(schema.safeParse({}).success).toBe(false);
  });
});

/** A schema of the document with its local $refs pointed at the copy registered as "doc". */
function rebase(schema: Json): Json {
  return JSON.parse(JSON.stringify(schema).replace(/"\$ref":"#\//g, '"$ref":"doc#/')) as Json;
}

describe("request defaults for generated clients", () => {
  it("N5: request fields the service defaults are optional and carry no `default` (openapi-typescript makes a field with one required)", () => {
    for (const name of ["InitDynamicRequest", "MitRequest", "OperationRequest", "PayoutRequest"]) {
      const schema = document.components.schemas[name] as { properties: Record<string, Record<string, unknown>>; required?: string[] };
      for (const [field, property] of Object.entries(schema.properties)) {
        expect(property, `${name}.${field}`).not.toHaveProperty("default");
        if (/Default: /.test(String(property.description ?? ""))) expect(schema.required ?? [], `${name}.${field}`).not.toContain(field);
      }
    }
    const init = (document.components.schemas.InitDynamicRequest as { required: string[] }).required;
    expect([...init].sort()).toEqual(["amount", "currency", "merchantid"]);
  });
});

describe("the OpenAPI 3.0 variant (/api/openapi-3.0.json)", () => {
  const document30 = toOpenApi30(buildOpenApiDocument()) as unknown as Document & { openapi: string; info: { description: string } };

  it("is valid OpenAPI 3.0, with the same paths and schemas and no webhooks", { timeout: 60_000 }, async () => {
    const result = await new Validator().validate(structuredClone(document30) as never);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    expect(document30.openapi).toBe("3.0.3");
    expect(document30).not.toHaveProperty("webhooks");
    expect(Object.keys(document30.paths)).toEqual(Object.keys(document.paths));
    expect(Object.keys(document30.components.schemas)).toEqual(Object.keys(document.components.schemas));
    expect(document30.info.description).toContain("/api/openapi.json describes each notification");
  });

  it("uses no JSON Schema 2020-12 form that 3.0 spells otherwise", () => {
    const found: string[] = [];
    const walk = (node: unknown, at: string): void => {
      if (Array.isArray(node)) return node.forEach((item, index) => walk(item, `${at}/${index}`));
      if (!node || typeof node !== "object") return;
      for (const [key, value] of Object.entries(node)) {
        if (key === "const" || (key === "type" && Array.isArray(value)) || ((key === "exclusiveMinimum" || key === "exclusiveMaximum") && typeof value === "number")) found.push(`${at}/${key}`);
        if (key === "type" && value === "null") found.push(`${at}/type: null`);
        if (key === "examples" && Array.isArray(value)) found.push(`${at}/examples[]`);
        walk(value, `${at}/${key}`);
      }
    };
    walk(document30, "");
    expect(found).toEqual([]);
  });

  it("translates the 2020-12 forms the zod schemas may produce", () => {
    expect(schemaTo30({ type: ["string", "null"], const: "x", examples: ["a", "b"], exclusiveMinimum: 0 })).toEqual({ type: "string", nullable: true, enum: ["x"], example: "a", minimum: 0, exclusiveMinimum: true });
    expect(schemaTo30({ anyOf: [{ type: "integer" }, { type: "null" }], description: "d" })).toEqual({ nullable: true, type: "integer", description: "d" });
    expect(schemaTo30({ properties: { a: { type: ["integer", "string"] } } })).toEqual({ properties: { a: { anyOf: [{ type: "integer" }, { type: "string" }] } } });
  });
});
