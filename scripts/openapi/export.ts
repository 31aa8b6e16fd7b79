// Writes the OpenAPI document as a file, for tools that read one (SDK generators, linters):
//   npm run -s openapi:export -- [FILE]     (stdout without FILE)
// The exported document names the placeholder server https://payments.invalid: point your client
// at your deployment (its PUBLIC_BASE_URL), or take the document a running service serves at
// /api/openapi.json, which names its own address.
import { writeFileSync } from "node:fs";
import { buildOpenApiDocument } from "../../lib/openapi/build-openapi-document";

const text = `${JSON.stringify(buildOpenApiDocument(), null, 2)}\n`;
const file = process.argv[2];
if (file) writeFileSync(file, text);
else process.stdout.write(text);
