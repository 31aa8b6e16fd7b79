import { readdirSync } from "node:fs";
import nextCoreWebVitals from "eslint-config-next/core-web-vitals";
import nextTypeScript from "eslint-config-next/typescript";

/** The kernels (docs/architecture.md): lib/ rooms every domain may import, which import only each other. */
const KERNELS = ["acquirers/names.ts", "cards", "db", "db.ts", "egress", "env.ts", "errors.ts", "http", "ids.ts", "local-secrets.ts", "mode.ts", "observability", "validation"];

/** The acquirer modules: every folder of lib/acquirers but its plumbing (lib/acquirers/README.md). */
const ACQUIRER_MODULES = readdirSync(new URL("./lib/acquirers", import.meta.url), { withFileTypes: true })
  .filter((entry) => entry.isDirectory() && entry.name !== "plumbing")
  .map((entry) => entry.name);

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
              // The kernels are what every domain stands on: they import only each other, so that no
              // cycle can run through them (tests/unit/architecture/import-graph.test.ts checks the graph).
              target: KERNELS.map((kernel) => `./lib/${kernel}`),
              from: "./lib",
              except: [...KERNELS.map((kernel) => `./${kernel}`), "./generated"],
              message:
                "A kernel (cards, db, observability, http, egress, validation, env, errors, ids, mode) imports no domain: take the domain's fact as an argument, or move the code up into the domain.",
            },
            {
              // The back office is the top floor: its queries and actions are called by its pages and forms only.
              target: ["./lib/!(backoffice)/**", "./lib/*.ts"],
              from: "./lib/backoffice",
              message: "Only app/ and components/ import lib/backoffice: a domain below it never reaches up into the back office.",
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
              // API; and no connector leans on a simulator. They may read the list of names. Local-mode
              // seeding (seed-demo.ts, sandbox-merchant-accounts.ts) is launcher work and creates
              // accounts through lib/routing.
              target: ["./lib/sandboxes/acquirers/**", "./lib/sandboxes/threeds/**", "./lib/sandboxes/demo-*.ts"],
              from: "./lib/acquirers",
              except: ["./names.ts"],
              message:
                "A sandbox is written from its acquirer's public reference, never from our connectors: from lib/acquirers it imports names.ts only (its own field names and constants).",
            },
            {
              target: ["./lib/sandboxes/acquirers/**", "./lib/sandboxes/threeds/**", "./lib/sandboxes/demo-*.ts"],
              from: "./lib/routing",
              message:
                "A sandbox is written from its acquirer's public reference, never from our connectors: no imports from lib/routing.",
            },
            {
              // lib/acquirers/index.ts is the one registration point: everything else reaches a module
              // through it (the registry, credentials, capabilities, environment), so a new acquirer
              // is one folder and one line there.
              target: ["./app/**", "./components/**", "./lib/!(acquirers)/**", "./lib/*.ts", "./lib/acquirers/!(index).ts", "./lib/acquirers/plumbing/**"],
              from: ACQUIRER_MODULES.map((name) => `./lib/acquirers/${name}`),
              message:
                "Only lib/acquirers/index.ts imports an acquirer module: use what it registers (lib/acquirers/index.ts, registry.ts, credentials.ts, capabilities.ts).",
            },
            // A module is plumbing around pure transformers: it imports the contract, the names, the
            // shared plumbing and the kernels, never another module, the registry or a domain.
            ...ACQUIRER_MODULES.map((name) => ({
              target: `./lib/acquirers/${name}`,
              from: "./lib",
              except: [`./acquirers/${name}`, "./acquirers/contract.ts", "./acquirers/plumbing", "./generated", ...KERNELS.map((kernel) => `./${kernel}`)],
              message:
                "An acquirer module imports only lib/acquirers/contract.ts, names.ts, plumbing/ and the kernels: never another module, the registry or a domain.",
            })),
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
