import nextCoreWebVitals from "eslint-config-next/core-web-vitals";
import nextTypeScript from "eslint-config-next/typescript";

const config = [
  ...nextCoreWebVitals,
  ...nextTypeScript,
  {
    ignores: [
      "lib/generated/**",
      "dist/**",
      "public/_cps/**",
      ".next*/**",
      ".data*/**",
      "test-results/**",
      "scratch/**",
      "playwright-report/**",
      "node_modules/**",
      "next-env.d.ts",
    ],
  },
  {
    rules: {
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
      "no-console": "off",
    },
  },
  {
    // The rooms (docs/architecture.md): arrows run from app/ into lib/, from jobs into domains, from
    // domains into kernels. lib/inngest is infrastructure and imports no domain; no domain imports
    // lib/jobs; nothing but the launcher imports the simulators in lib/sandboxes.
    files: ["lib/**/*.{ts,tsx}", "app/**/*.{ts,tsx}", "components/**/*.{ts,tsx}", "packages/inngest-embedded/**/*.ts"],
    rules: {
      "import/no-restricted-paths": [
        "error",
        {
          zones: [
            {
              target: "./lib/inngest",
              from: "./lib",
              except: ["./inngest", "./db", "./db.ts", "./env.ts", "./ids.ts", "./errors.ts", "./generated", "./observability"],
              message: "lib/inngest is infrastructure: it imports no domain (jobs live in lib/jobs and call the domains).",
            },
            {
              // The embedded executor is its own package with a narrow API (packages/inngest-embedded/README.md):
              // it reaches the app's database through the client it is given, never through lib/.
              target: "./packages/inngest-embedded",
              from: ["./lib", "./app", "./components", "./scripts", "./tests"],
              message: "packages/inngest-embedded imports nothing of the app: take what it needs as an option (database, logger, clock).",
            },
            {
              target: "./lib/!(jobs|sandboxes)/**",
              from: "./lib/jobs",
              message: "No domain imports lib/jobs: send the job's event (lib/inngest/send-event.ts) instead.",
            },
            {
              target: ["./lib/!(sandboxes|jobs)/**", "./lib/jobs/!(start-background-services).ts", "./lib/*.ts", "./components/**"],
              from: "./lib/sandboxes",
              message:
                "Only the launcher (lib/jobs/start-background-services.ts, scripts/) imports the sandboxes; they register their addresses and credentials as configuration.",
            },
            {
              // The simulators are written from the acquirers' public references (docs/acquirers.md),
              // never from our connectors, so that they catch a connector that drifts from the real
              // API; and no connector leans on a simulator. Local-mode seeding (seed-demo.ts,
              // sandbox-merchant-accounts.ts) is launcher work and creates accounts through lib/processors.
              target: ["./lib/sandboxes/acquirers/**", "./lib/sandboxes/threeds/**", "./lib/sandboxes/demo-*.ts"],
              from: "./lib/processors",
              message:
                "A sandbox is written from its acquirer's public reference, never from our connectors: no imports from lib/processors (its own field names and constants).",
            },
            {
              // The service serves two sandbox pages itself in development (the demo shop and the 3DS
              // challenge page); no other route imports a simulator.
              target: "./app/!(demo-shop|sandbox)/**",
              from: "./lib/sandboxes",
              message: "Only the launcher imports the sandboxes.",
            },
          ],
        },
      ],
    },
  },
  {
    // Test helpers named use* (useTestDatabase) are vitest hooks, not React hooks.
    files: ["tests/**"],
    rules: { "react-hooks/rules-of-hooks": "off" },
  },
];

export default config;
