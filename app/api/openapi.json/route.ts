// GET /api/openapi.json: the OpenAPI 3.1 document of the merchant API, built from its zod schemas,
// naming this deployment's own addresses (PUBLIC_BASE_URL and the interface hosts) as its servers.
import { config } from "@/lib/env";
import { buildOpenApiDocument } from "@/lib/openapi/build-openapi-document";

// Built per request from the running configuration, not at build time: the build machine does not
// know the address the service will be reached at.
export const dynamic = "force-dynamic";

export function GET(): Response {
  const { publicBaseUrl, apiBaseUrls } = config();
  return Response.json(buildOpenApiDocument({ publicBaseUrl, apiBaseUrls }), {
    headers: { "Cache-Control": "public, max-age=300", "Access-Control-Allow-Origin": "*" },
  });
}
