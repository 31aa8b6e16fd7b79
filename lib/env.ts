// The only reader of process.env. Every variable is validated here with zod; a bad value stops
// the service at start with a message that names the variable and the reason.
import ipaddr from "ipaddr.js";
import { z } from "zod";
import { ACQUIRER_NAMES, type AcquirerName } from "./acquirers/names";
import { loadOrCreateLocalSecrets, type LocalSecrets } from "./local-secrets";
import type { Mode } from "./mode";

/** An unset or empty variable is absent. */
const blankAsUndefined = z
  .string()
  .optional()
  .transform((value) => (value?.trim() ? value.trim() : undefined));

const optionalUrl = blankAsUndefined.pipe(z.url({ protocol: /^https?$/, error: "must be an http(s) URL" }).optional());

const secret = (minLength: number) => z.string().min(minLength, `must be at least ${minLength} characters`).optional();
const flag = z
  .enum(["0", "1", "true", "false", ""])
  .optional()
  .transform((value) => value === "1" || value === "true");

const schema = z.object({
  NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
  /** Set by `npm start` and CI so that a production build still runs with local defaults. */
  CPS_LOCAL: flag,
  HOST: z.string().default("127.0.0.1"),
  PORT: z.coerce.number().int().min(1).max(65535).default(3000),
  /** Public origin of the service; every API host below defaults to it. */
  PUBLIC_BASE_URL: optionalUrl,
  CIT_BASE_URL: optionalUrl,
  MIT_BASE_URL: optionalUrl,
  CAPTURE_BASE_URL: optionalUrl,
  REFUND_BASE_URL: optionalUrl,
  PAYOUT_BASE_URL: optionalUrl,
  PAYMENT_BASE_URL: optionalUrl,
  HEALTH_BASE_URL: optionalUrl,
  BACKOFFICE_BASE_URL: optionalUrl,
  WEBSITE_BASE_URL: optionalUrl,
  DATA_DIR: z.string().default(".data"),
  /** PostgreSQL 14+; without it the embedded database in DATA_DIR is used. */
  DATABASE_URL: blankAsUndefined.pipe(
    z
      .string()
      .regex(/^postgres(ql)?:\/\//, "must be a postgres:// or postgresql:// URL")
      .optional(),
  ),
  DATABASE_POOL_SIZE: z.coerce.number().int().min(1).max(200).default(10),
  /**
   * How long a query waits for a pooled connection before it fails (and a merchant request answers
   * 503 SERVICE_UNAVAILABLE): without a limit an overloaded process queues requests for ever. The
   * default is the executor's transaction maxWait (15 s), so the worker waits as long as it did;
   * web processes may set it lower to shed load sooner.
   */
  DATABASE_POOL_TIMEOUT_MS: z.coerce.number().int().min(100).max(120_000).default(15_000),
  /**
   * How long a pooled connection may stay idle before it is closed (decision 0224). Ten minutes, as
   * HikariCP's default, not node-postgres's 10 s: a process that was quiet for 10 s met its next
   * requests with no connection, and each new one prepares every hot statement again (decision
   * 0216); the bench's first second after a pause answered several times slower than the rest.
   */
  DATABASE_POOL_IDLE_TIMEOUT_MS: z.coerce.number().int().min(1_000).max(3_600_000).default(600_000),
  /**
   * The hot paths' statements as named prepared statements (decision 0216): parsed and planned once
   * per connection instead of on every call. "off" for a connection pooler that cannot keep them
   * (PgBouncer in transaction mode before 1.21, or without max_prepared_statements). The embedded
   * database never uses them.
   */
  DATABASE_PREPARED_STATEMENTS: z.enum(["on", "off"]).default("on"),
  EMBEDDED_DB_PORT: z.coerce.number().int().min(0).max(65535).default(0),
  /** Signs back-office sessions (next-auth). */
  SESSION_SECRET: secret(32),
  /**
   * Back-office users must have a second factor (enrolment forced at the next sign-in; PCI DSS v4
   * 8.4.2). Always in production (0 is refused there); locally off unless set to 1, so the README's
   * quick start signs the demo owner in with a password alone.
   */
  BACKOFFICE_MFA_REQUIRED: z.enum(["0", "1", "true", "false", ""]).optional(),
  /** 32 bytes, base64: encrypts stored card numbers (AES-256-GCM). */
  CARD_DATA_KEY: z
    .string()
    .refine((value) => Buffer.from(value, "base64").length === 32, "must be 32 bytes encoded as base64")
    .optional(),
  /** Earlier card-data keys, comma separated, still used to decrypt after a key change. */
  CARD_DATA_PREVIOUS_KEYS: z.string().default(""),
  /** Keys the HMAC under which API keys and card fingerprints are stored. */
  API_KEY_SECRET: secret(32),
  /**
   * Proxies in front of the service that append to X-Forwarded-For (a load balancer, a CDN). 0: the
   * header is ignored and the socket address is the client (lib/http/client-ip.ts).
   */
  TRUSTED_PROXY_HOPS: z.coerce.number().int().min(0).max(10).default(0),
  /** Inngest dev mode (no request signatures); refused in production. */
  INNGEST_DEV: z.string().optional(),
  INNGEST_BASE_URL: optionalUrl,
  INNGEST_EVENT_KEY: z.string().optional(),
  INNGEST_SIGNING_KEY: z.string().optional(),
  /** The previous signing key during a rotation (the Inngest SDK's variable): calls signed with it are accepted too. */
  INNGEST_SIGNING_KEY_FALLBACK: z.string().optional(),
  /**
   * The origin an Inngest server reaches /api/inngest at (e.g. http://web:3000 in compose): the SDK
   * registers and answers syncs with it. Default PUBLIC_BASE_URL; never the request's Host header.
   */
  INNGEST_SERVE_ORIGIN: optionalUrl,
  // Background work (Inngest): tuning of the embedded executor (unused in server mode).
  /** Calls to /api/inngest one service process makes at once. */
  INNGEST_EMBEDDED_CONCURRENCY: z.coerce.number().int().min(1).max(200).default(16),
  /**
   * The executor's safety poll: new events wake it at once (PostgreSQL LISTEN/NOTIFY) and due sleeps
   * and retries by a timer; this only bounds how late a lost notification is noticed.
   */
  INNGEST_EMBEDDED_POLL_MS: z.coerce.number().int().min(50).max(60_000).default(10_000),
  /** Days a finished run (and its event) stays visible before the executor deletes it; 0 keeps all. */
  INNGEST_EMBEDDED_RETENTION_DAYS: z.coerce.number().int().min(0).max(3650).default(30),
  /** Default: info (warn under NODE_ENV=test, see lib/observability/logger.ts). */
  LOG_LEVEL: z.enum(["debug", "info", "warn", "error", "silent"]).optional(),
  // --- observability (lib/observability): logs, metrics, traces, rate limits.
  /** "json": one JSON object a line (production default); "pretty": readable lines (local default). */
  LOG_FORMAT: z.enum(["json", "pretty"]).optional(),
  /** Bearer token for GET /metrics (Prometheus). Unset: /metrics answers 404 in production, open locally. */
  METRICS_TOKEN: blankAsUndefined.pipe(z.string().min(16, "must be at least 16 characters").optional()),
  /** OTLP/HTTP collector base URL (spans go to <url>/v1/traces); unset: no tracing. */
  OTEL_EXPORTER_OTLP_ENDPOINT: optionalUrl,
  OTEL_SERVICE_NAME: z.string().default("card-payment-service"),
  /** Merchant API requests one API key may make per second; 0 turns the limit off. */
  RATE_LIMIT_API_PER_SECOND: z.coerce.number().int().min(0).max(100_000).default(100),
  /** Hosted-field requests (payments, authorize, challenge) one session may make per minute; 0 = off. */
  RATE_LIMIT_SESSION_PER_MINUTE: z.coerce.number().int().min(0).max(100_000).default(60),
  /** Where the counters live: "memory" (per process) or "postgres" (shared by every process, DATABASE_URL). */
  RATE_LIMIT_STORE: z.enum(["memory", "postgres"]).default("memory"),
  // --- end observability
  /**
   * Private networks merchant addresses may reach although they are refused by default (lib/egress),
   * comma separated CIDRs, e.g. "10.1.0.0/16,fd00::/8". Empty: public addresses only (plus loopback locally).
   */
  EGRESS_ALLOWED_NETWORKS: z
    .string()
    .default("")
    .refine(
      (value) => value.split(",").every((entry) => !entry.trim() || ipaddr.isValidCIDR(entry.trim())),
      "must be comma-separated networks in CIDR notation, such as 10.1.0.0/16,fd00::/8",
    ),
  // --- HTTP server (lib/http/server-timeouts.ts): how long a client may take to send a request.
  /** Time to receive a whole request, headers and body (Node's default is 300 s). */
  HTTP_REQUEST_TIMEOUT_MS: z.coerce.number().int().min(1_000).max(300_000).default(30_000),
  /** Time to receive a request's headers (Node's default is 60 s); at most HTTP_REQUEST_TIMEOUT_MS. */
  HTTP_HEADERS_TIMEOUT_MS: z.coerce.number().int().min(1_000).max(300_000).default(20_000),
  /** Open connections one process accepts; past it new ones are closed at once. 0: no cap. */
  HTTP_MAX_CONNECTIONS: z.coerce.number().int().min(0).max(1_000_000).default(4_096),
  // --- runtime (lib/runtime): deployment role and graceful shutdown.
  /** What this process does: web (API, hosted fields, back office), worker (executor, periodic services) or all. */
  ROLE: z.enum(["web", "worker", "all"]).default("all"),
  /** After SIGTERM, the longest the process takes to finish or give back its work and exit. */
  SHUTDOWN_TIMEOUT_MS: z.coerce.number().int().min(0).max(600_000).default(25_000),
  /**
   * After SIGTERM, how long readiness answers 503 while requests are still served, so that a load
   * balancer stops sending new ones first. Default: 5000 in production, 0 elsewhere.
   */
  SHUTDOWN_DRAIN_MS: z.coerce.number().int().min(0).max(600_000).optional(),
  /** Set by the launcher (scripts/start.ts): Next.js leaves SIGTERM to lib/runtime/graceful-shutdown.ts. */
  NEXT_MANUAL_SIG_HANDLE: flag,
  /**
   * Turns on the benchmark floor routes under /api/bench-floor (npm run bench -- merchant-api): off
   * unless set to 1, and refused in production; without it they answer 404 like any unknown path.
   */
  BENCH_FLOORS: flag,
  // --- end runtime
  // --- processors (lib/acquirers, lib/routing, lib/threeds): acquirer connectors, their sandboxes, 3-D Secure.
  // Live acquirer accounts use *_BASE_URL only; test accounts use *_TEST_BASE_URL or, when it is
  // unset, the in-process sandbox (started by the service). Live mode never reaches a sandbox.
  /** Time-out of one acquirer call in milliseconds; an acquirer's own <NAME>_TIMEOUT_MS overrides it. */
  PROCESSOR_TIMEOUT_MS: z.coerce.number().int().min(100).max(120_000).default(15_000),
  // Each acquirer's endpoints are generated from its name (acquirerEndpointVariables below); its own
  // further variables are its module's (lib/acquirers/environment.ts).
  /**
   * The 3DS Server (the 3dsecure.io API: /preauth, /auth, /postauth) of live payments; unset: live
   * payments get no 3-D Secure. It is a 3DS Server as a service, not a directory server.
   */
  THREEDS_SERVER_URL: optionalUrl,
  THREEDS_API_KEY: blankAsUndefined,
  /** The 3DS Server of test payments; unset: the in-process sandbox. */
  THREEDS_TEST_SERVER_URL: optionalUrl,
  THREEDS_TEST_API_KEY: blankAsUndefined,
  /** Old names of THREEDS_SERVER_URL and THREEDS_TEST_SERVER_URL, still read (with a warning) when the new one is unset. */
  THREEDS_DS_URL: optionalUrl,
  THREEDS_TEST_DS_URL: optionalUrl,
  /** Port of the 3-D Secure sandbox (its challenge page is opened by the cardholder's browser); 0 = any free port. */
  THREEDS_SANDBOX_PORT: z.coerce.number().int().min(0).max(65535).default(0),
  /**
   * Which 3-D Secure sandbox test mode mounts: "lenient" (default; it authenticates the acquirer
   * sandboxes' test cards) or "strict" (the 3DS Server of the 3dsecure.io reference: /preauth, the 3DS
   * Method, every required AReq field; its test cards are chosen by the PAN's last four digits).
   */
  THREEDS_SANDBOX: z.enum(["lenient", "strict"]).default("lenient"),
  /**
   * Start the built-in sandboxes for test mode, for processors (and 3-D Secure) without a test
   * endpoint: "1" or "0". Default: on, in production too (merchants integrate in test mode on the
   * real service); live payments never reach them, whatever is configured.
   */
  PROCESSOR_SANDBOXES: z.enum(["0", "1", "true", "false", ""]).optional(),
  // --- end processors
  /**
   * The mail server for team invitations and "forgot password" (smtp://user:pass@host:587, or
   * smtps://... for implicit TLS). Production: required for those features (without it they are
   * refused, saying so); locally without it the mails are kept and shown at /backoffice/outbox.
   */
  SMTP_URL: z
    .string()
    .trim()
    .optional()
    .refine((value) => !value || /^smtps?:\/\//.test(value), "must be an smtp:// or smtps:// URL"),
  /** The sender of those mails. */
  MAIL_FROM: z.string().trim().min(3).default("Card Payment Service <no-reply@localhost>"),
});

export type Env = z.infer<typeof schema>;

/**
 * The variables every acquirer has, named after it: <NAME>_BASE_URL, its production endpoint for live
 * accounts (operator configuration; credentials belong to each merchant's acquirer accounts);
 * <NAME>_TEST_BASE_URL, its test endpoint for test accounts (unset: the built-in sandbox);
 * <NAME>_TIMEOUT_MS, the time-out of one call to it (unset: PROCESSOR_TIMEOUT_MS);
 * <NAME>_REPORTING_SANDBOX_PORT, the port of the in-process sandbox of its reporting API (disputes
 * and settlements), for an acquirer that publishes one (unset or 0: any free port; set for one that
 * publishes none, the start is refused: lib/acquirers/environment.ts). Like THREEDS_SANDBOX_PORT, it
 * lets a test reach the sandbox's scenario endpoints at an address it knows.
 */
export function acquirerEndpointVariables(name: AcquirerName) {
  const prefix = name.toUpperCase();
  return {
    baseUrl: `${prefix}_BASE_URL`,
    testBaseUrl: `${prefix}_TEST_BASE_URL`,
    timeoutMs: `${prefix}_TIMEOUT_MS`,
    reportingSandboxPort: `${prefix}_REPORTING_SANDBOX_PORT`,
  } as const;
}

const acquirerEndpointSchema = z.object({
  baseUrl: optionalUrl,
  testBaseUrl: optionalUrl,
  timeoutMs: z.coerce.number().int().min(100).max(120_000).optional(),
  reportingSandboxPort: z.coerce.number({ error: "must be a port number" }).int().min(0).max(65535).optional(),
});
export type AcquirerEndpoints = z.infer<typeof acquirerEndpointSchema>;

/** Each acquirer's endpoint variables, validated, and the issues (named by variable) of those that are not valid. */
function parseAcquirerEndpoints(source: Record<string, string | undefined>): { endpoints: Record<AcquirerName, AcquirerEndpoints>; issues: string[] } {
  const issues: string[] = [];
  const endpoints = Object.fromEntries(
    ACQUIRER_NAMES.map((name) => {
      const variables = acquirerEndpointVariables(name);
      const parsed = acquirerEndpointSchema.safeParse({
        baseUrl: source[variables.baseUrl],
        testBaseUrl: source[variables.testBaseUrl],
        timeoutMs: source[variables.timeoutMs],
        reportingSandboxPort: source[variables.reportingSandboxPort],
      });
      if (parsed.success) return [name, parsed.data];
      for (const issue of parsed.error.issues) issues.push(`${variables[issue.path[0] as keyof typeof variables]}: ${issue.message}`);
      return [name, {}];
    }),
  ) as Record<AcquirerName, AcquirerEndpoints>;
  return { endpoints, issues };
}

/** The set variables named after an acquirer (<NAME>_...) other than its endpoints, trimmed: its module reads them. */
function acquirerOwnVariables(source: Record<string, string | undefined>): Record<string, string> {
  const endpoints = new Set<string>(ACQUIRER_NAMES.flatMap((name) => Object.values(acquirerEndpointVariables(name))));
  const prefixes = ACQUIRER_NAMES.map((name) => `${name.toUpperCase()}_`);
  return Object.fromEntries(
    Object.entries(source)
      .filter(([key, value]) => prefixes.some((prefix) => key.startsWith(prefix)) && !endpoints.has(key) && value?.trim())
      .map(([key, value]) => [key, value!.trim()]),
  );
}

export type ApiHost = "cit" | "mit" | "capture" | "refund" | "payout" | "payment" | "health";

export interface AppConfig extends Env {
  isProduction: boolean;
  publicBaseUrl: string;
  apiBaseUrls: Record<ApiHost, string>;
  backofficeBaseUrl: string;
  websiteBaseUrl: string;
  secrets: LocalSecrets;
  /** "embedded" runs the app's Inngest functions in-process; "server" sends events to an Inngest server. */
  inngestMode: "embedded" | "server";
  /** SHUTDOWN_DRAIN_MS with its default applied. */
  shutdownDrainMs: number;
  /** INNGEST_SERVE_ORIGIN, else the public base URL: where the serve endpoint says it lives. */
  inngestServeOrigin: string;
  /** BACKOFFICE_MFA_REQUIRED with its default applied (always true in production). */
  backofficeMfaRequired: boolean;
  /**
   * Live in production, test in local mode: the mode of a key made without one (CLI) and the mode
   * existing rows took when test and live mode came (the upgrade migration).
   */
  defaultMode: Mode;
  /** Each acquirer's endpoints, time-out and reporting sandbox port (acquirerEndpointVariables). */
  acquirers: Record<AcquirerName, AcquirerEndpoints>;
  /** The other variables named after an acquirer, as set: its module validates and reads them (lib/acquirers/environment.ts). */
  acquirerVariables: Record<string, string>;
}

export class ConfigError extends Error {
  constructor(issues: string[]) {
    super(`Invalid configuration:\n${issues.map((issue) => `  - ${issue}`).join("\n")}`);
    this.name = "ConfigError";
  }
}

function trimSlash(url: string): string {
  return url.replace(/\/+$/, "");
}

/** Renamed variables: [old, new]. The old name is read when the new one is unset; both set and different is an error. */
export const RENAMED_THREEDS_VARIABLES = [
  ["THREEDS_DS_URL", "THREEDS_SERVER_URL"],
  ["THREEDS_TEST_DS_URL", "THREEDS_TEST_SERVER_URL"],
] as const;

function renameThreeDsServerVariables(env: Env): Env {
  const renamed = { ...env };
  for (const [oldName, newName] of RENAMED_THREEDS_VARIABLES) {
    const oldValue = env[oldName];
    if (!oldValue) continue;
    if (env[newName] && env[newName] !== oldValue)
      throw new ConfigError([`${oldName}: renamed to ${newName}, and both are set to different addresses; remove ${oldName}`]);
    console.warn(`${oldName} is deprecated: it names the 3DS Server (3dsecure.io API), rename it to ${newName}`);
    renamed[newName] = oldValue;
  }
  return renamed;
}

export function parseEnv(source: Record<string, string | undefined>): AppConfig {
  const parsed = schema.safeParse(source);
  const acquirers = parseAcquirerEndpoints(source);
  if (!parsed.success || acquirers.issues.length > 0) {
    throw new ConfigError([...(parsed.error?.issues.map((issue) => `${issue.path.join(".")}: ${issue.message}`) ?? []), ...acquirers.issues]);
  }
  const env = renameThreeDsServerVariables(parsed.data);
  const isProduction = env.NODE_ENV === "production" && !env.CPS_LOCAL;
  const configured = {
    sessionSecret: env.SESSION_SECRET,
    cardDataKey: env.CARD_DATA_KEY,
    apiKeySecret: env.API_KEY_SECRET,
  };
  const missing = Object.entries({
    SESSION_SECRET: configured.sessionSecret,
    CARD_DATA_KEY: configured.cardDataKey,
    API_KEY_SECRET: configured.apiKeySecret,
  })
    .filter(([, value]) => !value)
    .map(([name]) => name);
  if (isProduction && missing.length > 0) {
    throw new ConfigError(missing.map((name) => `${name}: required in production (it is generated into DATA_DIR only for local runs)`));
  }
  if (isProduction && env.INNGEST_DEV?.trim()) {
    // The Inngest SDK skips the signature check on /api/inngest in dev mode: anyone could run our jobs.
    throw new ConfigError([
      "INNGEST_DEV: must not be set in production (dev mode turns off the signature check on /api/inngest); unset it and set INNGEST_SIGNING_KEY",
    ]);
  }
  if (isProduction && (env.BACKOFFICE_MFA_REQUIRED === "0" || env.BACKOFFICE_MFA_REQUIRED === "false")) {
    throw new ConfigError([
      "BACKOFFICE_MFA_REQUIRED: cannot be turned off in production (PCI DSS v4 8.4.2 asks for MFA on all access to card data)",
    ]);
  }
  if (isProduction && env.BENCH_FLOORS) {
    // The floors are an unauthenticated route that reads a body and writes a row: for benchmarks only.
    throw new ConfigError([
      "BENCH_FLOORS: must not be set in production (it opens an unauthenticated benchmark route); benchmark a local build",
    ]);
  }
  const secrets =
    missing.length === 0 ? (configured as LocalSecrets) : { ...loadOrCreateLocalSecrets(env.DATA_DIR), ...stripUndefined(configured) };

  const publicBaseUrl = trimSlash(env.PUBLIC_BASE_URL ?? `http://localhost:${env.PORT}`);
  const base = (value: string | undefined) => trimSlash(value ?? publicBaseUrl);
  const inngestMode = env.INNGEST_DEV || env.INNGEST_BASE_URL || env.INNGEST_EVENT_KEY || env.INNGEST_SIGNING_KEY ? "server" : "embedded";
  return {
    ...env,
    isProduction,
    publicBaseUrl,
    apiBaseUrls: {
      cit: base(env.CIT_BASE_URL),
      mit: base(env.MIT_BASE_URL),
      capture: base(env.CAPTURE_BASE_URL),
      refund: base(env.REFUND_BASE_URL),
      payout: base(env.PAYOUT_BASE_URL),
      payment: base(env.PAYMENT_BASE_URL),
      health: base(env.HEALTH_BASE_URL),
    },
    backofficeBaseUrl: base(env.BACKOFFICE_BASE_URL),
    websiteBaseUrl: base(env.WEBSITE_BASE_URL),
    secrets,
    inngestMode,
    shutdownDrainMs: env.SHUTDOWN_DRAIN_MS ?? (isProduction ? 5_000 : 0),
    inngestServeOrigin: new URL(env.INNGEST_SERVE_ORIGIN ?? publicBaseUrl).origin,
    backofficeMfaRequired: isProduction || env.BACKOFFICE_MFA_REQUIRED === "1" || env.BACKOFFICE_MFA_REQUIRED === "true",
    defaultMode: isProduction ? "live" : "test",
    acquirers: acquirers.endpoints,
    acquirerVariables: acquirerOwnVariables(source),
  };
}

function stripUndefined<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}

let cached: AppConfig | undefined;

/** The validated configuration of this process, read once. */
export function config(): AppConfig {
  cached ??= parseEnv(process.env);
  return cached;
}

/** Reads process.env again on next use (after a script or test changed it). */
export function resetConfig(): void {
  cached = undefined;
}

/**
 * Replaces process.env by a plain-object copy of itself, once per process (the worker, before its
 * executor starts). Node's process.env is an interceptor over the C environment: listing it costs
 * about 36 µs for 70 variables, a plain object's about 5 µs, and the Inngest SDK lists it several
 * times per function call (inngest-js 4.24 `getProcessEnv` copies its variables at every request
 * and for every header set: 6.5% of the worker's CPU in docs/performance.md). The process reads
 * and writes its variables through process.env as before, and child processes get them from it;
 * only the C environment no longer follows writes, which nothing of ours reads (no TZ changes at
 * run time). docs/decisions/0171-direct-sdk-calls.md.
 */
export function installPlainProcessEnv(): void {
  const state = globalThis as unknown as { __cpsPlainProcessEnv?: boolean };
  if (state.__cpsPlainProcessEnv) return;
  state.__cpsPlainProcessEnv = true;
  process.env = { ...process.env };
}
