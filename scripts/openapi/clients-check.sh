#!/usr/bin/env bash
# npm run openapi:clients: the generated clients of docs/integration.md, made from the documents a
# running service serves, compiled, and each used for one call (scripts/openapi/clients-check.ts).
set -euo pipefail
cd "$(dirname "$0")/../.."
exec npx tsx scripts/openapi/clients-check.ts
