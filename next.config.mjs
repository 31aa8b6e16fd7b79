import { PHASE_PRODUCTION_BUILD } from "next/constants.js";

/** @type {import('next').NextConfig} */
const nextConfig = {
  reactStrictMode: true,
  // Workspace packages ship TypeScript sources (packages/inngest-embedded).
  transpilePackages: ["@cps/inngest-embedded"],
  poweredByHeader: false,
  // Dispute evidence is uploaded through a server action (app/backoffice/(app)/disputes/[disputeId]):
  // the largest file an acquirer's rules take is 5 MB (docs/decisions/0196), plus the multipart
  // framing. Next's default of 1 MB would cut such a body off before the action could say why. The
  // action itself refuses a file over the acquirer's limit with the rule; the form refuses it before
  // uploading.
  // CPS_BUILD_NO_MINIFY=1: server code left readable, so that a CPU profile names our functions
  // (profiling builds of the benches, docs/performance.md); every other build is minified.
  experimental: { serverActions: { bodySizeLimit: "6mb" }, serverMinification: process.env.CPS_BUILD_NO_MINIFY !== "1" },
  // Loaded by Node at run time rather than bundled: WebAssembly and native modules; and the
  // observability packages, which keep process-wide state (pino's streams, prom-client's registry,
  // OpenTelemetry's global provider) that must not be duplicated per bundle.
  serverExternalPackages: [
    "@electric-sql/pglite",
    "@electric-sql/pglite-socket",
    "@node-rs/argon2",
    "pg",
    "@prisma/adapter-pg",
    "pino",
    "prom-client",
    "rate-limiter-flexible",
    "@opentelemetry/api",
    "@opentelemetry/core",
    "@opentelemetry/exporter-trace-otlp-http",
    "@opentelemetry/resources",
    "@opentelemetry/sdk-trace-base",
    "@opentelemetry/sdk-trace-node",
  ],
  // CPS_BUILD_SKIP_TYPECHECK=1 (scripts/test.sh and .ci/run, which type-check the whole tree with
  // `npm run typecheck` as a result of its own): the build skips its second, narrower pass.
  typescript: { tsconfigPath: "tsconfig.json", ignoreBuildErrors: process.env.CPS_BUILD_SKIP_TYPECHECK === "1" },
  // A separate build folder per checkout user (tests, benchmarks) so builds never overwrite each other.
  distDir: process.env.NEXT_DIST_DIR || ".next",
  async headers() {
    // The hosted-field bundles are content-hashed at build time (scripts/build/browser-bundles.mjs).
    return [{ source: "/_cps/:file*", headers: [{ key: "Cache-Control", value: "public, max-age=31536000, immutable" }] }];
  },
};

export default async function config(phase) {
  // Every production build (`npm run build`, the one `npm start` runs) also emits the browser bundles,
  // so that `next start` runs no bundler. Once per build: the build's workers load this file again.
  if (phase === PHASE_PRODUCTION_BUILD && !process.env.CPS_BUNDLES_BUILT) {
    const { buildBrowserBundles } = await import("./scripts/build/browser-bundles.mjs");
    await buildBrowserBundles();
    process.env.CPS_BUNDLES_BUILT = "1";
  }
  return nextConfig;
}
