/** @type {import('next').NextConfig} */
const nextConfig = {
  reactStrictMode: true,
  poweredByHeader: false,
  // Loaded by Node at run time rather than bundled: WebAssembly and native modules.
  serverExternalPackages: ["@electric-sql/pglite", "@electric-sql/pglite-socket", "@node-rs/argon2", "pg", "@prisma/adapter-pg"],
  typescript: { tsconfigPath: "tsconfig.json" },
  // A separate build folder per checkout user (tests, benchmarks) so builds never overwrite each other.
  distDir: process.env.NEXT_DIST_DIR || ".next",
};

export default nextConfig;
