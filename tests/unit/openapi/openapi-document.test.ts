// The published OpenAPI document: valid OpenAPI 3.1, covering every merchant API route and every
// error code the service answers.
import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { Validator } from "@seriousme/openapi-schema-validator";
import { describe, expect, it } from "vitest";
import { API_ERROR_STATUS } from "@/lib/errors";
import { buildOpenApiDocument } from "@/lib/openapi/build-openapi-document";
import { assertAnswerMatchesOpenApi, assertNotificationMatchesOpenApi } from "../../helpers/openapi-contract";

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
  it("is valid OpenAPI 3.1", async () => {
    const result = await new Validator().validate(structuredClone(document) as never);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    expect((document as unknown as { openapi: string }).openapi).toBe("3.1.0");
  });

  it("describes every route served through the merchant API wrapper, with its methods", () => {
    const merchantRoutes = routeFiles(path.join(ROOT, "app/api")).filter((file) => readFileSync(file, "utf8").includes("merchantRoute("));
    expect(merchantRoutes.length).toBeGreaterThanOrEqual(7);
    for (const file of merchantRoutes) {
      const template = `/${path.relative(path.join(ROOT, "app"), path.dirname(file)).split(path.sep).join("/")}`.replace(
        /\[([^\]]+)\]/g,
        "{$1}",
      );
      const methods = [...readFileSync(file, "utf8").matchAll(/export const (GET|POST|PUT|PATCH|DELETE) = merchantRoute/g)].map((m) =>
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
    expect(() => assertNotificationMatchesOpenApi({ paymentid: "p", merchantpaymentid: "" }, "lifecycle")).not.toThrow();
    expect(() => assertNotificationMatchesOpenApi({ paymentid: 1 })).toThrow(/matches no webhook/);
  });
});
