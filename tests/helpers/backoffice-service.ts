// The real service (scripts/start.ts, a Next production build, its own embedded database) for tests
// of the back office over HTTP and in Chromium: the test process points its own database client at
// the service's database (to make users and read rows with the use cases), signs in through
// next-auth's credentials endpoint with a cookie jar, and drives the pages in Debian's Chromium.
import { readFileSync, rmSync } from "node:fs";
import http from "node:http";
import path from "node:path";
import type { Page } from "@playwright/test";
import { afterAll, beforeAll } from "vitest";
import { launchChromium, type LaunchedChromium } from "./chromium";
import { startService, type ServiceProcess, type StartServiceOptions } from "./service-process";

const ROOT = path.resolve(import.meta.dirname, "../..");

export interface DemoCredentials {
  merchantId: string;
  apiKey: string;
  email: string;
  password: string;
}

export interface BackofficeService {
  service: ServiceProcess;
  dataDir: string;
  demo: DemoCredentials;
  /** An HTTP request to the service (no redirects followed), from `from` (a local address) when given. */
  call(pathname: string, init?: RequestInit & { jar?: CookieJar; from?: string; host?: string }): Promise<Response>;
  /** Signs in through next-auth's credentials endpoint; `error` is the code it redirects with, if any. */
  signIn(email: string, password: string): Promise<{ jar: CookieJar; error?: string }>;
  /** Signs in on the sign-in page in Chromium and waits for the overview. */
  signInPage(page: Page, email: string, password: string): Promise<void>;
  stop(): Promise<void>;
}

export class CookieJar {
  private readonly cookies = new Map<string, string>();
  header(): string {
    return [...this.cookies].map(([name, value]) => `${name}=${value}`).join("; ");
  }
  take(response: Response): void {
    for (const line of response.headers.getSetCookie()) {
      const [pair = "", ...attributes] = line.split(";");
      const at = pair.indexOf("=");
      const name = pair.slice(0, at).trim();
      const value = pair.slice(at + 1).trim();
      const expired = attributes.some((attribute) => /^\s*max-age=0\s*$/i.test(attribute)) || value === "";
      if (expired) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
  }
}

/**
 * Starts the service in a fresh data folder and makes this process's database client (lib/db) use
 * the service's embedded database, so that the test can create users with the use cases.
 */
export async function startBackofficeService(name: string, options: StartServiceOptions = {}): Promise<BackofficeService> {
  const dataDir = options.dataDir ?? path.join(ROOT, ".data-test", `${name}-${process.pid}-${Date.now()}`);
  const service = await startService({ ...options, dataDir, env: { DATABASE_URL: undefined, TRUSTED_PROXY_HOPS: undefined, ...options.env } });
  const { port } = JSON.parse(readFileSync(path.join(dataDir, "pglite.json"), "utf8")) as { port: number };
  const secrets = JSON.parse(readFileSync(path.join(dataDir, "secrets.json"), "utf8")) as { embeddedDbPassword?: string };
  process.env.DATABASE_URL = `postgresql://postgres:${encodeURIComponent(secrets.embeddedDbPassword ?? "postgres")}@127.0.0.1:${port}/postgres?sslmode=disable`;
  process.env.DATA_DIR = dataDir;
  const { resetConfig } = await import("@/lib/env");
  resetConfig();
  const demo = JSON.parse(readFileSync(path.join(dataDir, "demo.json"), "utf8")) as DemoCredentials;
  const call: BackofficeService["call"] = async (pathname, init = {}) => {
    const { jar, from, host, ...rest } = init;
    const headers = new Headers(rest.headers);
    if (jar) headers.set("cookie", jar.header());
    const body = rest.body === undefined || rest.body === null ? undefined : Buffer.from(await new Response(rest.body).arrayBuffer());
    if (body) headers.set("content-length", String(body.length));
    // node:http: fetch sets its own Host header and cannot choose the local address of its socket.
    const target = from && !from.startsWith("127.") ? from : "127.0.0.1";
    const response = await new Promise<Response>((resolve, reject) => {
      const outgoing = http.request(
        {
          host: target,
          port: service.port,
          path: pathname,
          method: rest.method ?? "GET",
          headers: { ...Object.fromEntries(headers), host: host ?? `127.0.0.1:${service.port}` },
          localAddress: from,
          agent: false,
        },
        (incoming) => {
          const chunks: Buffer[] = [];
          incoming.on("data", (chunk: Buffer) => chunks.push(chunk));
          incoming.on("end", () => {
            const answer = new Headers();
            for (const [name, value] of Object.entries(incoming.headers)) {
              for (const each of Array.isArray(value) ? value : value === undefined ? [] : [value]) answer.append(name, each);
            }
            const status = incoming.statusCode ?? 0;
            resolve(new Response(status === 204 || status === 304 ? null : Buffer.concat(chunks), { status, headers: answer }));
          });
          incoming.on("error", reject);
        },
      );
      outgoing.on("error", reject);
      outgoing.end(body);
    });
    jar?.take(response);
    return response;
  };
  const signIn: BackofficeService["signIn"] = async (email, password) => {
    const jar = new CookieJar();
    const { csrfToken } = (await (await call("/api/auth/csrf", { jar })).json()) as { csrfToken: string };
    const response = await call("/api/auth/callback/credentials", {
      jar,
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ csrfToken, email, password, json: "true", callbackUrl: `${service.baseUrl}/backoffice` }),
    });
    const location = response.headers.get("location") ?? ((await response.json()) as { url: string }).url;
    return { jar, error: new URL(location, service.baseUrl).searchParams.get("error") ?? undefined };
  };
  const signInPage: BackofficeService["signInPage"] = async (page, email, password) => {
    await page.context().clearCookies();
    await page.goto(`${service.baseUrl}/backoffice/sign-in`);
    await page.getByLabel("Email").fill(email);
    await page.getByLabel("Password").fill(password);
    // The button is enabled once React runs (components/backoffice/sign-in-form.tsx): on a CI machine
    // running the suites beside each other that took over the click's default 30 s once; the same
    // bound as the sign-in's own wait below.
    await page.getByRole("button", { name: "Sign in" }).click({ timeout: 120_000 });
    await page.waitForURL(/\/backoffice$/, { timeout: 120_000 });
  };
  return {
    service,
    dataDir,
    demo,
    call,
    signIn,
    signInPage,
    async stop() {
      const { disconnectDb } = await import("@/lib/db");
      await disconnectDb();
      await service.stop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * The bound of one back-office case in Chromium: long enough that a slow step reaches its own wait
 * first (a sign-in alone may wait 2 × 120 s, each other step Playwright's 30 s or its own 60 s). On a
 * CI machine running the suites beside each other the security project's 120 s once ran out first,
 * and vitest then names no step, only STACK_TRACE_ERROR; with this bound a slow step fails on its own
 * wait and names its locator.
 */
export const CHROMIUM_CASE_BOUND_MS = 600_000;

export interface BackofficeInChromium {
  readonly backoffice: BackofficeService;
  readonly browser: LaunchedChromium;
}

/**
 * For a vitest file of back-office cases in a browser: the service (startBackofficeService(name))
 * and Chromium, started before the file's tests and closed after them, the browser first.
 */
export function useBackofficeInChromium(name: string): BackofficeInChromium {
  let backoffice: BackofficeService | undefined;
  let browser: LaunchedChromium | undefined;
  beforeAll(async () => {
    backoffice = await startBackofficeService(name);
    browser = await launchChromium();
  }, 900_000);
  afterAll(async () => {
    await browser?.close();
    await backoffice?.stop();
  });
  const started = <T>(value: T | undefined): T => {
    if (value === undefined) throw new Error("the back office is used before beforeAll");
    return value;
  };
  return {
    get backoffice() {
      return started(backoffice);
    },
    get browser() {
      return started(browser);
    },
  };
}
