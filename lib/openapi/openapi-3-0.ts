// The OpenAPI 3.0 variant of the document, for SDK generators that read 3.0 only or 3.1 badly
// (openapi-generator 7 types every field of a 3.1 document as any, and says its 3.1 support is in
// development; newcomer review 4, N6). Served at /api/openapi-3.0.json beside the 3.1 document,
// made from it by a fixed translation, so the two cannot say different things: the version, the
// JSON Schema 2020-12 forms that 3.0 spells otherwise (a null type as `nullable`, `const`, schema
// `examples`, numeric exclusive bounds), and no `webhooks` (3.0 has none: the notification bodies
// stay as schemas under components, and the 3.1 document describes them as webhooks).

type Json = Record<string, unknown>;

export const OPENAPI_30_VERSION = "3.0.3";

const isNullType = (node: unknown) => Boolean(node && typeof node === "object" && (node as Json).type === "null" && Object.keys(node as Json).length === 1);

/** One JSON Schema 2020-12 schema (and what is under it) in the OpenAPI 3.0 dialect. */
export function schemaTo30(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(schemaTo30);
  if (!node || typeof node !== "object") return node;
  const input = node as Json;
  const out: Json = {};
  for (const [key, value] of Object.entries(input)) {
    if (key === "$schema" || key === "$id" || key === "contentMediaType" || key === "contentEncoding") continue;
    if (key === "const") {
      out.enum = [value];
    } else if (key === "type" && Array.isArray(value)) {
      const types = value.filter((type) => type !== "null");
      if (types.length !== value.length) out.nullable = true;
      if (types.length === 1) out.type = types[0];
      else out.anyOf = types.map((type) => ({ type }));
    } else if ((key === "anyOf" || key === "oneOf") && Array.isArray(value) && value.some(isNullType)) {
      const rest = value.filter((item) => !isNullType(item)).map(schemaTo30);
      out.nullable = true;
      if (rest.length === 1) Object.assign(out, rest[0] as Json);
      else out[key] = rest;
    } else if (key === "examples" && Array.isArray(value)) {
      if (value.length > 0) out.example = value[0];
    } else if ((key === "exclusiveMinimum" || key === "exclusiveMaximum") && typeof value === "number") {
      out[key === "exclusiveMinimum" ? "minimum" : "maximum"] = value;
      out[key] = true;
    } else {
      out[key] = schemaTo30(value);
    }
  }
  return out;
}

/** The whole document in OpenAPI 3.0.3: schemas translated, webhooks left out, everything else as is. */
export function toOpenApi30(document: Json): Json {
  const { webhooks: _webhooks, jsonSchemaDialect: _dialect, ...rest } = document;
  const info = { ...(rest.info as Json) };
  if (info.license && typeof info.license === "object") {
    const { identifier: _identifier, ...license } = info.license as Json;
    info.license = license;
  }
  info.description = [
    info.description,
    "",
    "This is the OpenAPI 3.0 variant of /api/openapi.json (OpenAPI 3.1), for generators that read 3.0. OpenAPI 3.0 has no webhooks: the notification bodies are the *Notification schemas (and PaymentRecord) under components, and /api/openapi.json describes each notification.",
  ]
    .filter((line) => line !== undefined)
    .join("\n");
  return { ...(schemaTo30(rest) as Json), openapi: OPENAPI_30_VERSION, info };
}
