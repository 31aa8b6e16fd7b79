// GET /reference/scalar.js: Scalar's standalone renderer from the npm package (@scalar/api-reference).
import { readFile } from "node:fs/promises";
import path from "node:path";

export const dynamic = "force-static";

export async function GET(): Promise<Response> {
  const file = path.join(process.cwd(), "node_modules/@scalar/api-reference/dist/browser/standalone.js");
  return new Response(await readFile(file), {
    headers: { "Content-Type": "text/javascript; charset=utf-8", "Cache-Control": "public, max-age=86400" },
  });
}
