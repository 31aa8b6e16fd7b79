// The ONE logger of the service (pino): JSON lines in production, readable lines locally, the
// level of LOG_LEVEL everywhere, and one redaction configuration. Every line carries the current
// request context (request id, TraceApi, merchant, session or Inngest run) and, when tracing is
// on, the trace and span ids. Card data never reaches a line: keys that hold it are censored by
// path, and free text (messages, error messages and stacks) goes through the one masker of card
// numbers in lib/cards.
// No pino transports: they run in worker threads that the Next.js bundle cannot load; the local
// format is a small in-process formatter instead.
import pino, { type Logger } from "pino";
import type SonicBoom from "sonic-boom";
import { trace } from "@opentelemetry/api";
import { redactCardNumbers } from "../cards/redact-card-numbers";
import { config } from "../env";
import { requestContext } from "./request-context";

/** Keys whose values never appear in a log, at any of the first three levels of a logged object. */
export const REDACTED_KEYS = [
  "pan",
  "cardnumber",
  "cardNumber",
  "card",
  "securitycode",
  "securityCode",
  "cvv",
  "cvc",
  "password",
  "passwordHash",
  "authorization",
  "Authorization",
  "apikey",
  "apiKey",
  "secret",
  "secrets",
  "notificationSecret",
  "testNotificationSecret",
  "notificationsecret",
  "testnotificationsecret",
  "signingKey",
  "token",
  "totpSecret",
  "cookie",
] as const;

export const REDACT_PATHS = REDACTED_KEYS.flatMap((key) => [key, `*.${key}`, `*.*.${key}`]);

type Level = "debug" | "info" | "warn" | "error" | "silent";

interface Sink {
  write(line: string): void;
}

const state = globalThis as unknown as {
  __cpsLogger?: {
    root: Logger;
    children: Map<string, Logger>;
    /** The access lines' root (logAccess): the same options without path redaction. */
    accessRoot: Logger;
    accessChildren: Map<string, Logger>;
    capture?: string[];
    output: Sink;
  };
};

const LEVEL_NAMES: Record<number, string> = { 10: "TRACE", 20: "DEBUG", 30: "INFO", 40: "WARN", 50: "ERROR", 60: "FATAL" };
const BASE_KEYS = new Set(["level", "time", "pid", "hostname", "msg", "component", "service"]);

/** The local format: `12:00:01.234 INFO  [merchant-api] message key=value ...`. */
function prettyLine(line: string): string {
  try {
    const entry = JSON.parse(line) as Record<string, unknown>;
    const time = new Date(Number(entry.time)).toISOString().slice(11, 23);
    const level = (LEVEL_NAMES[Number(entry.level)] ?? String(entry.level)).padEnd(5);
    const component = entry.component ? `[${String(entry.component)}] ` : "";
    const rest = Object.entries(entry)
      .filter(([key]) => !BASE_KEYS.has(key))
      .map(([key, value]) => `${key}=${typeof value === "string" ? value : JSON.stringify(value)}`)
      .join(" ");
    return `${time} ${level} ${component}${String(entry.msg ?? "")}${rest ? ` ${rest}` : ""}\n`;
  } catch {
    return line;
  }
}

const outputState = globalThis as unknown as { __cpsLogStdout?: SonicBoom };

/**
 * stdout through pino's asynchronous writer: a synchronous write to a pipe blocks the event loop
 * whenever the reader (log agent, test runner) is slow. What is buffered is written out on exit.
 */
/**
 * For scripts whose standard output is their result (the operator CLI's --json): log lines go to
 * standard error instead. Call before the first line is written.
 */
export function logToStandardError(): void {
  (outputState as { __cpsLogFd?: number }).__cpsLogFd = 2;
}

function stdout(): SonicBoom {
  if (!outputState.__cpsLogStdout) {
    const stream = pino.destination({ dest: (outputState as { __cpsLogFd?: number }).__cpsLogFd ?? 1, sync: false });
    process.on("exit", () => {
      try {
        stream.flushSync();
      } catch {
        // stdout already closed: nothing left to do.
      }
    });
    outputState.__cpsLogStdout = stream;
  }
  return outputState.__cpsLogStdout;
}

function createOutput(): Sink {
  let format: "json" | "pretty" = "json";
  try {
    format = config().LOG_FORMAT ?? (config().isProduction ? "json" : "pretty");
  } catch {
    // A configuration error is reported by whoever reads the configuration; log in JSON meanwhile.
  }
  const stream = stdout();
  return format === "json" ? { write: (line) => stream.write(line) } : { write: (line) => stream.write(prettyLine(line)) };
}

function configuredLevel(): Level {
  try {
    const settings = config();
    // Test runs print warnings and errors only unless LOG_LEVEL says otherwise (tests that look at
    // lines capture them at the level they need).
    return settings.LOG_LEVEL ?? (settings.NODE_ENV === "test" ? "warn" : "info");
  } catch {
    return "info";
  }
}

function maskErrors(error: unknown): unknown {
  if (!(error instanceof Error)) return error;
  const serialized = pino.stdSerializers.err(error) as unknown as Record<string, unknown> & { message?: string; stack?: string };
  // Only the error's own plain fields (code, severity ...): a driver's error can carry its whole
  // client object (pg's `client`), which is noise at best and connection details at worst.
  for (const [key, value] of Object.entries(serialized)) {
    if (value !== null && typeof value === "object" && key !== "cause") delete serialized[key];
  }
  return {
    ...serialized,
    message: redactCardNumbers(serialized.message ?? ""),
    stack: serialized.stack ? redactCardNumbers(serialized.stack) : undefined,
  };
}

function createRoot(): NonNullable<typeof state.__cpsLogger> {
  const holder = { children: new Map<string, Logger>(), accessChildren: new Map<string, Logger>(), output: createOutput() } as NonNullable<
    typeof state.__cpsLogger
  >;
  const sink: Sink = {
    write(line) {
      if (holder.capture) holder.capture.push(line);
      else holder.output.write(line);
    },
  };
  const options = (redact: boolean): pino.LoggerOptions => ({
    level: configuredLevel(),
    base: { service: "card-payment-service" },
    ...(redact ? { redact: { paths: REDACT_PATHS, censor: "[redacted]" } } : {}),
    serializers: { err: maskErrors, error: maskErrors },
    // Free text is masked too: a message built from an outside error may carry digits.
    hooks: {
      logMethod(args, method) {
        method.apply(
          this,
          args.map((arg) => (typeof arg === "string" ? redactCardNumbers(arg) : arg)) as Parameters<typeof method>,
        );
      },
    },
    mixin() {
      const context = requestContext();
      const span = trace.getActiveSpan()?.spanContext();
      return {
        ...(context?.requestId ? { requestId: context.requestId } : {}),
        // The merchant's own text: masked like a message, since it could hold anything.
        ...(context?.traceApi ? { traceApi: redactCardNumbers(context.traceApi) } : {}),
        ...(context?.merchantId ? { merchantId: context.merchantId } : {}),
        ...(context?.sessionId ? { sessionId: context.sessionId } : {}),
        ...(context?.runId ? { runId: context.runId, functionId: context.functionId } : {}),
        ...(span && span.traceFlags & 1 ? { traceId: span.traceId, spanId: span.spanId } : {}),
      };
    },
    timestamp: pino.stdTimeFunctions.epochTime,
  });
  holder.root = pino(options(true), sink);
  holder.accessRoot = pino(options(false), sink);
  return holder;
}

function holder() {
  state.__cpsLogger ??= createRoot();
  return state.__cpsLogger;
}

/** The logger of one part of the service (`component` on every line), e.g. log("merchant-api"). */
export function log(component?: string): Logger {
  const current = holder();
  if (!component) return current.root;
  let child = current.children.get(component);
  if (!child) {
    child = current.root.child({ component });
    current.children.set(component, child);
  }
  return child;
}

/** The fields of an access line (one per request): ids, labels and numbers the service made itself. */
export interface AccessLine {
  event: "http.access";
  method: string;
  /** A route pattern (never a path with its ids). */
  route: string;
  status: number;
  errorCode?: string;
  durationMs: number;
  merchantId?: string;
  /** The API key's mode (test, live). */
  mode?: "test" | "live";
  /** The merchant's TraceApi: its own text, so it is masked like a message. */
  traceApi?: string;
  requestId: string;
}

/**
 * Writes the access line of a request through the same sink, level, message masking and context as
 * every line, but without the path redaction: its fields are fixed by AccessLine, none of them is a
 * redacted key or an object, so redaction could never change it, and its pass over the 63 paths
 * (three levels of wildcards) cost about 85 µs of CPU per line, the largest piece of a merchant
 * request's logging (docs/performance.md, "Web-process CPU per request"). Everything else,
 * including lines that carry objects from elsewhere, goes through `log()` and its redaction.
 */
export function logAccess(component: string, level: "info" | "warn" | "error", line: AccessLine, message: string): void {
  const current = holder();
  let child = current.accessChildren.get(component);
  if (!child) {
    child = current.accessRoot.child({ component });
    current.accessChildren.set(component, child);
  }
  const safe: AccessLine = {
    event: "http.access",
    method: line.method,
    route: line.route,
    status: line.status,
    errorCode: line.errorCode,
    durationMs: line.durationMs,
    merchantId: line.merchantId,
    mode: line.mode,
    traceApi: line.traceApi === undefined ? undefined : redactCardNumbers(line.traceApi),
    requestId: line.requestId,
  };
  child[level](safe, message);
}

/**
 * Tests: every line written until `stop()` is kept (as the JSON that production writes) instead of
 * being printed. `level` lowers or raises the level meanwhile.
 */
export function captureLogs(options: { level?: Level } = {}): { lines: () => string[]; entries: () => Record<string, unknown>[]; stop: () => void } {
  const current = holder();
  const lines: string[] = [];
  const previousLevel = current.root.level;
  current.capture = lines;
  const setLevel = (level: string) => {
    for (const root of [current.root, current.accessRoot]) root.level = level;
    for (const child of [...current.children.values(), ...current.accessChildren.values()]) child.level = level;
  };
  if (options.level) setLevel(options.level);
  return {
    lines: () => lines.slice(),
    entries: () => lines.map((line) => JSON.parse(line) as Record<string, unknown>),
    stop: () => {
      if (current.capture === lines) current.capture = undefined;
      setLevel(previousLevel);
    },
  };
}

/** Reads LOG_LEVEL and LOG_FORMAT again (after a test or script changed the configuration). */
export function resetLogger(): void {
  const current = state.__cpsLogger;
  if (!current) return;
  current.output = createOutput();
  const level = configuredLevel();
  for (const root of [current.root, current.accessRoot]) root.level = level;
  for (const child of [...current.children.values(), ...current.accessChildren.values()]) child.level = level;
}

type LogMethod = "debug" | "info" | "warn" | "error";

/**
 * A logger for libraries that take `(message, ...args)` loggers (the Inngest SDK): created lazily,
 * so that importing the library's client reads no configuration.
 */
export function lazyLogger(component: string): Record<LogMethod, (...args: unknown[]) => void> {
  const forward =
    (method: LogMethod) =>
    (...args: unknown[]) => {
      const [first, ...rest] = args;
      const target = log(component);
      if (typeof first === "string") target[method](rest.length ? { args: rest } : {}, first);
      else if (first instanceof Error) target[method]({ err: first }, first.message);
      else target[method]({ args }, component);
    };
  return { debug: forward("debug"), info: forward("info"), warn: forward("warn"), error: forward("error") };
}
