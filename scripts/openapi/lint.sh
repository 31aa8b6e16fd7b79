#!/usr/bin/env bash
# Lints the exported OpenAPI document with Redocly CLI (redocly.yaml: the recommended rules with every
# warning an error, plus the rules that make a document good SDK-generator input). Offline:
# telemetry and the update check are off.
set -euo pipefail
cd "$(dirname "$0")/../.."
out=test-results/openapi
mkdir -p "$out"
npx tsx scripts/openapi/export.ts "$out/openapi.json"
# Redocly CLI prints a boxed notice that Node.js 20 support is ending on every run under Node 20
# (this project's runtime); it is about the runtime, not the document, so the box is dropped.
REDOCLY_TELEMETRY=off REDOCLY_SUPPRESS_UPDATE_NOTICE=true \
  npx redocly lint --config redocly.yaml --format stylish "$out/openapi.json" 2>&1 | grep -v '[╔║╚]'
