#!/usr/bin/env bash
# Lints the exported OpenAPI documents (3.1, and the 3.0 variant /api/openapi-3.0.json serves) with Redocly CLI (scripts/openapi/redocly.yaml: the recommended rules with every
# warning an error, plus the rules that make a document good SDK-generator input). Offline:
# telemetry and the update check are off.
set -euo pipefail
cd "$(dirname "$0")/../.."
out=test-results/openapi
mkdir -p "$out"
npx tsx scripts/openapi/export.ts "$out/openapi.json"
npx tsx scripts/openapi/export.ts "$out/openapi-3.0.json" --openapi-3.0
# Redocly CLI prints a boxed notice that Node.js 20 support is ending on every run under Node 20
# (this project's runtime); it is about the runtime, not the document, so the box is dropped.
REDOCLY_TELEMETRY=off REDOCLY_SUPPRESS_UPDATE_NOTICE=true \
  npx redocly lint --config scripts/openapi/redocly.yaml --format stylish "$out/openapi.json" 2>&1 | grep -v '[╔║╚]'
# The 3.0 variant has no webhooks (3.0 lacks them), so the notification schemas are components no
# operation names: kept on purpose, for the generated models a receiver parses notifications with.
REDOCLY_TELEMETRY=off REDOCLY_SUPPRESS_UPDATE_NOTICE=true \
  npx redocly lint --config scripts/openapi/redocly.yaml --format stylish --skip-rule no-unused-components "$out/openapi-3.0.json" 2>&1 | grep -v '[╔║╚]'
