// GET /api/openapi-3.0.json: the same document in OpenAPI 3.0.3, for SDK generators that read 3.0
// (lib/openapi/openapi-3-0.ts), naming this deployment's own addresses as /api/openapi.json does.
import { config } from "@/lib/env";
import { buildOpenApiDocument } from "@/lib/openapi/build-openapi-document";
import { toOpenApi30 } from "@/lib/openapi/openapi-3-0";

// Built per request from the running configuration, as the 3.1 document is.
export const dynamic = "force-dynamic";

export function GET(): Response {
  const { publicBaseUrl, apiBaseUrls } = config();
  return Response.json(toOpenApi30(buildOpenApiDocument({ publicBaseUrl, apiBaseUrls })), {
    headers: { "Cache-Control": "public, max-age=300", "Access-Control-Allow-Origin": "*" },
  });
}
