// Writes the OpenAPI document as a file, for tools that read one (SDK generators, linters):
//   npm run -s openapi:export -- [FILE] [--openapi-3.0]     (stdout without FILE)
// --openapi-3.0 writes the OpenAPI 3.0 variant (what /api/openapi-3.0.json serves).
// The exported document names the placeholder server https://payments.invalid: point your client
// at your deployment (its PUBLIC_BASE_URL), or take the document a running service serves at
// /api/openapi.json (or /api/openapi-3.0.json), which names its own address.
import { writeFileSync } from "node:fs";
import { buildOpenApiDocument } from "../../lib/openapi/build-openapi-document";
import { toOpenApi30 } from "../../lib/openapi/openapi-3-0";

const args = process.argv.slice(2);
const variant30 = args.includes("--openapi-3.0");
const file = args.find((arg) => !arg.startsWith("--"));
const document = buildOpenApiDocument();
const text = `${JSON.stringify(variant30 ? toOpenApi30(document) : document, null, 2)}\n`;
if (file) writeFileSync(file, text);
else process.stdout.write(text);
