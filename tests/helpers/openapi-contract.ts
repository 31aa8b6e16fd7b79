// Checks what the service answers and sends against its own OpenAPI document (lib/openapi), so the
// document cannot drift from the service: the merchant-API harness checks every answer, the
// notification receiver every notification body.
import { Ajv2020, type ValidateFunction } from "ajv/dist/2020.js";
import addFormatsModule from "ajv-formats";
import { buildOpenApiDocument } from "@/lib/openapi/build-openapi-document";

// ajv-formats is CommonJS; its default export arrives one level down under some loaders.
const addFormats = ((addFormatsModule as unknown as { default?: typeof addFormatsModule }).default ??
  addFormatsModule) as typeof addFormatsModule;

interface OpenApiDocument {
  paths: Record<string, Record<string, { responses: Record<string, { content?: Record<string, unknown>; "x-error-codes"?: string[] }> }>>;
  webhooks: Record<string, { post: { operationId: string } }>;
}

let ajv: Ajv2020 | undefined;
const compiled = new Map<string, ValidateFunction>();

function validator(pointer: string): ValidateFunction {
  if (!ajv) {
    ajv = new Ajv2020({ strict: false, allErrors: true });
    addFormats(ajv);
    ajv.addSchema(buildOpenApiDocument(), "openapi");
  }
  let validate = compiled.get(pointer);
  if (!validate) {
    validate = ajv.compile({ $ref: `openapi#${pointer}` });
    compiled.set(pointer, validate);
  }
  return validate;
}

const escape = (segment: string) => segment.replace(/~/g, "~0").replace(/\//g, "~1");

function describe(validate: ValidateFunction): string {
  return (validate.errors ?? []).map((error) => `${error.instancePath || "/"} ${error.message} ${JSON.stringify(error.params)}`).join("; ");
}

/** The document's path template for a concrete path ("/api/abc/capture" → "/api/{paymentid}/capture"). */
function templateFor(path: string): string | undefined {
  const document = buildOpenApiDocument() as unknown as OpenApiDocument;
  return Object.keys(document.paths).find((template) =>
    new RegExp(`^${template.replace(/\{[^}]+\}/g, "[^/]+").replace(/\./g, "\\.")}$`).test(path),
  );
}

/**
 * Throws when `body` is not what the document says `method path` answers with `status`. Paths the
 * document does not describe (not the merchant API) are not checked.
 */
export function assertAnswerMatchesOpenApi(method: string, path: string, status: number, body: unknown): void {
  const pathname = path.split("?")[0]!;
  if ((status === 404 || status === 405) && pathname.startsWith("/api")) {
    // No endpoint, or not this method: the refusal still has the spec's error shape.
    const validate = validator("/components/schemas/ErrorBody");
    if (!validate(body))
      throw new Error(`OpenAPI: ${method} ${pathname} ${status} is not an ErrorBody: ${describe(validate)}\n${JSON.stringify(body)}`);
    return;
  }
  const template = templateFor(pathname);
  if (!template) return;
  const document = buildOpenApiDocument() as unknown as OpenApiDocument;
  const operation = document.paths[template]?.[method.toLowerCase()];
  if (!operation) throw new Error(`OpenAPI: ${method} ${template} is not in the document, but the service answered ${status}`);
  const response = operation.responses[String(status)];
  if (!response) throw new Error(`OpenAPI: ${method} ${template} answered ${status}, which the document does not list`);
  if (!response.content?.["application/json"]) return;
  const codes = response["x-error-codes"];
  const code = (body as { error?: unknown } | null)?.error;
  if (codes && !codes.includes(code as string)) {
    throw new Error(`OpenAPI: ${method} ${template} answered ${status} with error ${String(code)}, which the document does not list for ${status}`);
  }
  const validate = validator(`/paths/${escape(template)}/${method.toLowerCase()}/responses/${status}/content/application~1json/schema`);
  if (!validate(body)) {
    throw new Error(
      `OpenAPI: ${method} ${template} ${status} answer does not match the document: ${describe(validate)}\n${JSON.stringify(body)}`,
    );
  }
}

/**
 * Throws unless `body` is one of the document's webhooks (the one named by `kind` when the
 * notification says its kind).
 */
export function assertNotificationMatchesOpenApi(body: unknown, kind?: string): void {
  const document = buildOpenApiDocument() as unknown as OpenApiDocument;
  const names = Object.keys(document.webhooks).filter((name) => !kind || name === `${kind}Notification`);
  if (names.length === 0) throw new Error(`OpenAPI: no webhook for the notification kind "${kind}"`);
  const failures: string[] = [];
  for (const name of names) {
    const validate = validator(`/webhooks/${name}/post/requestBody/content/application~1json/schema`);
    if (validate(body)) return;
    failures.push(`${name}: ${describe(validate)}`);
  }
  throw new Error(`OpenAPI: the notification matches no webhook of the document:\n${failures.join("\n")}\n${JSON.stringify(body)}`);
}
