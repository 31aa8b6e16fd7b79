// The client's committed types must be what the service's OpenAPI document says today: rendering
// them again from the builder (packages/client/scripts/generate.ts) must give the committed file.
import { readFile } from "node:fs/promises";
import { describe, expect, it } from "vitest";
import { renderSchema, SCHEMA_FILE } from "@/packages/client/scripts/generate";

describe("packages/client/src/schema.d.ts", () => {
  it("is up to date with lib/openapi/build-openapi-document.ts (else run: npx tsx packages/client/scripts/generate.ts)", async () => {
    const committed = await readFile(SCHEMA_FILE, "utf8");
    const fresh = await renderSchema();
    expect(committed === fresh, "schema.d.ts is stale: run npx tsx packages/client/scripts/generate.ts").toBe(true);
  }, 30_000);

  it("types every path and webhook of the document", async () => {
    const { buildOpenApiDocument } = await import("@/lib/openapi/build-openapi-document");
    const document = buildOpenApiDocument() as { paths: Record<string, unknown>; webhooks: Record<string, unknown> };
    const committed = await readFile(SCHEMA_FILE, "utf8");
    for (const path of Object.keys(document.paths)) expect(committed).toContain(`"${path}": {`);
    for (const name of Object.keys(document.webhooks)) expect(committed).toContain(`  ${name}: {`);
  });
});
