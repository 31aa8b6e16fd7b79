// GET /api/openapi.json: the OpenAPI 3.1 document of the merchant API, built from its zod schemas.
import { buildOpenApiDocument } from "@/lib/openapi/build-openapi-document";

export const dynamic = "force-static";

export function GET(): Response {
  return Response.json(buildOpenApiDocument(), { headers: { "Cache-Control": "public, max-age=300", "Access-Control-Allow-Origin": "*" } });
}
