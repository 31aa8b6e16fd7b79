// Items 6, 7, 8 (back-office headers) and 9 of the security issue, against the real service started
// as an operator does (`scripts/start.ts`, a Next production build, the embedded database in a data
// folder of its own): the sign-in throttle raced with parallel requests and dodged with a forged
// X-Forwarded-For; session cookies that outlive a sign-out, a role change, a removal or a new TOTP
// secret; a key minted with a session cookie alone; back-office pages that other sites may frame;
// and the embedded database's folder modes and its loopback port.
// Sign-ins go through next-auth's own credentials endpoint with fetch and a cookie jar; the forms
// that call server actions are driven in Debian's Chromium.
import { chmodSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import pg from "pg";
import { generate } from "otplib";
import { Agent, fetch as undiciFetch } from "undici";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { Page } from "@playwright/test";
import { startService, type ServiceProcess } from "@/tests/helpers/service-process";
import { CookieJar } from "@/tests/helpers/backoffice-service";
import { launchChromium, type LaunchedChromium } from "@/tests/helpers/chromium";
import { createTestMerchant } from "@/tests/helpers/merchant-factories";

const ROOT = path.resolve(import.meta.dirname, "../..");
// Every sign-in is an argon2 hash on a shared 2-core machine, and the forms run in a real browser.
vi.setConfig({ testTimeout: 300_000 });
const PASSWORD = "a long enough password";

let service: ServiceProcess;
let browser: LaunchedChromium;
let dataDir: string;
let merchantId: string;
let database: pg.Pool;

/** The embedded database's URL, from the files the service keeps in its data folder. */
function serviceDatabaseUrl(password?: string): string {
  const { port } = JSON.parse(readFileSync(path.join(dataDir, "pglite.json"), "utf8")) as { port: number };
  const secrets = JSON.parse(readFileSync(path.join(dataDir, "secrets.json"), "utf8")) as { embeddedDbPassword?: string };
  const secret = password ?? secrets.embeddedDbPassword ?? "postgres";
  return `postgresql://postgres:${encodeURIComponent(secret)}@127.0.0.1:${port}/postgres?sslmode=disable`;
}

function modesUnder(root: string): { path: string; mode: number; directory: boolean }[] {
  const stat = statSync(root);
  const entry = { path: path.relative(dataDir, root) || ".", mode: stat.mode & 0o777, directory: stat.isDirectory() };
  if (!stat.isDirectory()) return [entry];
  return [entry, ...readdirSync(root).flatMap((child) => modesUnder(path.join(root, child)))];
}

beforeAll(async () => {
  // A data folder as an older version left it: open to everyone, with a file anyone may read.
  dataDir = path.join(ROOT, ".data-test", `auth-sec-${process.pid}-${Date.now()}`);
  mkdirSync(dataDir, { recursive: true });
  chmodSync(dataDir, 0o777);
  writeFileSync(path.join(dataDir, "notes.txt"), "left by an older version", { mode: 0o666 });
  chmodSync(path.join(dataDir, "notes.txt"), 0o666);
  service = await startService({ dataDir, env: { DATABASE_URL: undefined, TRUSTED_PROXY_HOPS: undefined } });
  // The test's own view of the service's database (for users and for counting attempts).
  process.env.DATABASE_URL = serviceDatabaseUrl();
  process.env.DATA_DIR = dataDir;
  const { resetConfig } = await import("@/lib/env");
  resetConfig();
  database = new pg.Pool({ connectionString: serviceDatabaseUrl(), max: 2 });
  merchantId = (await createTestMerchant()).merchantId;
  browser = await launchChromium();
}, 900_000);

afterAll(async () => {
  await browser?.close();
  await database?.end();
  const { disconnectDb } = await import("@/lib/db");
  await disconnectDb();
  await service?.stop();
});

let userCount = 0;
async function newUser(role: "OWNER" | "DEVELOPER" | "VIEWER" = "OWNER") {
  const { createUser } = await import("@/lib/users/create-user");
  const email = `user${++userCount}-${Date.now()}@example.com`;
  const user = await createUser({ merchantId, email, name: `User ${userCount}`, password: PASSWORD, role });
  return { id: user.id, email };
}

interface RequestOptions {
  jar?: CookieJar;
  /** A forged X-Forwarded-For. */
  forwardedFor?: string;
  /** Connect from this loopback address (the socket address the service sees). */
  from?: string;
}

const agents = new Map<string, Agent>();
function agentFrom(address: string): Agent {
  let agent = agents.get(address);
  if (!agent) agents.set(address, (agent = new Agent({ localAddress: address })));
  return agent;
}

async function call(pathname: string, init: RequestInit & RequestOptions = {}): Promise<Response> {
  const { jar, forwardedFor, from, ...rest } = init;
  const headers = new Headers(rest.headers);
  if (jar) headers.set("cookie", jar.header());
  if (forwardedFor) headers.set("x-forwarded-for", forwardedFor);
  // undici's own fetch: Node's built-in one does not take the npm package's dispatcher (localAddress).
  const response = (await undiciFetch(`http://127.0.0.1:${service.port}${pathname}`, {
    ...(rest as object),
    headers,
    redirect: "manual",
    dispatcher: agentFrom(from ?? "127.0.0.1"),
  } as unknown as Parameters<typeof undiciFetch>[1])) as unknown as Response;
  jar?.take(response);
  return response;
}

/** Signs in through next-auth's credentials endpoint; `error` is the code it redirects with, if any. */
async function signIn(email: string, password: string, options: RequestOptions & { totp?: string } = {}): Promise<{ jar: CookieJar; error?: string }> {
  const jar = options.jar ?? new CookieJar();
  const csrf = await call("/api/auth/csrf", { ...options, jar });
  const { csrfToken } = (await csrf.json()) as { csrfToken: string };
  const form = new URLSearchParams({ csrfToken, email, password, json: "true", callbackUrl: `${service.baseUrl}/backoffice` });
  if (options.totp) form.set("totp", options.totp);
  const response = await call("/api/auth/callback/credentials", {
    ...options,
    jar,
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: form,
  });
  const location = response.headers.get("location") ?? ((await response.json()) as { url: string }).url;
  const error = new URL(location, service.baseUrl).searchParams.get("error") ?? undefined;
  return { jar, error };
}

/** Whether the cookie jar's session still opens the back office (the page guard and next-auth's session endpoint). */
async function sessionWorks(jar: CookieJar): Promise<{ page: boolean; session: boolean }> {
  const page = await call("/backoffice", { jar: structuredCloneJar(jar) });
  const session = (await (await call("/api/auth/session", { jar: structuredCloneJar(jar) })).json()) as { userId?: string };
  return { page: page.status === 200, session: typeof session.userId === "string" };
}

/** A copy, so that a check does not replace the cookie under test with a refreshed one. */
function structuredCloneJar(jar: CookieJar): CookieJar {
  const copy = new CookieJar();
  Object.assign(copy, { cookies: new Map((jar as unknown as { cookies: Map<string, string> }).cookies) });
  return copy;
}

async function failuresOf(email: string): Promise<number> {
  const { rows } = await database.query<{ count: string }>(`SELECT count(*) FROM "SignInAttempt" WHERE "email" = $1 AND NOT "succeeded"`, [email]);
  return Number(rows[0]!.count);
}

async function browserSignIn(page: Page, email: string, password: string): Promise<void> {
  await page.context().clearCookies();
  await page.goto(`${service.baseUrl}/backoffice/sign-in`);
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await page.waitForURL(/\/backoffice$/);
}

describe("item 6: the sign-in throttle", () => {
  it("item 6: 15 parallel wrong passwords record at most 5 failures, and the right password is then refused while locked", async () => {
    const user = await newUser();
    const results = await Promise.all(Array.from({ length: 15 }, () => signIn(user.email, "not the password")));
    // Named in the failure message: which answers were neither a wrong password nor the lock.
    expect(results.map((result) => result.error).filter((error) => error !== "INVALID_CREDENTIALS" && error !== "RATE_LIMITED")).toEqual([]);
    expect(await failuresOf(user.email)).toBeLessThanOrEqual(5);
    const right = await signIn(user.email, PASSWORD);
    expect(right.error).toBe("RATE_LIMITED");
    expect((await sessionWorks(right.jar)).page).toBe(false);
  });

  it("item 6: a forged X-Forwarded-For does not move the per-address limit (0 trusted hops): the socket address is counted", async () => {
    // 30 failures from one socket address, spread over 30 accounts, each with another forged header.
    for (let batch = 0; batch < 3; batch++) {
      const errors = await Promise.all(
        Array.from({ length: 10 }, async (_, offset) => {
          const index = batch * 10 + offset;
          return (await signIn(`nobody${index}-${Date.now()}@example.com`, "guess", { from: "127.0.0.9", forwardedFor: `203.0.113.${index + 1}` })).error;
        }),
      );
      expect(errors.every((error) => error === "INVALID_CREDENTIALS")).toBe(true);
    }
    // The address is locked out, whatever the header claims; the attempts were recorded under the socket address.
    const user = await newUser();
    const locked = await signIn(user.email, PASSWORD, { from: "127.0.0.9", forwardedFor: "198.51.100.77" });
    expect(locked.error).toBe("RATE_LIMITED");
    const { rows } = await database.query<{ ipAddress: string | null }>(`SELECT DISTINCT "ipAddress" FROM "SignInAttempt" WHERE "email" LIKE 'nobody%'`);
    expect(rows.map((row) => row.ipAddress)).toEqual(["127.0.0.9"]);
    // Another socket address is not affected.
    expect((await signIn(user.email, PASSWORD, { from: "127.0.0.10" })).error).toBeUndefined();
  });
});

describe("a sign-in that fails for a reason of the service's own", () => {
  it("answers UNAVAILABLE, a code the form knows, and no text of the database's error (next-auth puts an error's message into the URL)", async () => {
    const user = await newUser();
    // The attempts table out of the way: the throttle's statements fail inside the service.
    await database.query(`ALTER TABLE "SignInAttempt" RENAME TO "SignInAttemptAway"`);
    let answer: { jar: CookieJar; error?: string };
    try {
      answer = await signIn(user.email, PASSWORD);
    } finally {
      await database.query(`ALTER TABLE "SignInAttemptAway" RENAME TO "SignInAttempt"`);
    }
    expect(answer.error).toBe("UNAVAILABLE");
    expect((await sessionWorks(answer.jar)).page).toBe(false);
    // And with the table back, the same sign-in works.
    expect((await signIn(user.email, PASSWORD)).error).toBeUndefined();
  });
});

describe("item 7: back-office sessions end, and credentials need the password again", () => {
  it("item 7: after signing out, the user's other session cookies are refused", async () => {
    const user = await newUser();
    const first = await signIn(user.email, PASSWORD);
    const second = await signIn(user.email, PASSWORD);
    expect(first.error ?? second.error).toBeUndefined();
    expect(await sessionWorks(second.jar)).toEqual({ page: true, session: true });
    const { csrfToken } = (await (await call("/api/auth/csrf", { jar: first.jar })).json()) as { csrfToken: string };
    const signOut = await call("/api/auth/signout", {
      jar: first.jar,
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ csrfToken, json: "true" }),
    });
    expect(signOut.status).toBeLessThan(400);
    expect(await sessionWorks(second.jar)).toEqual({ page: false, session: false });
  });

  it("item 7: after a role change or a removal, the member's old session cookie is refused; both need the owner's password", async () => {
    const owner = await newUser("OWNER");
    const changed = await newUser("DEVELOPER");
    const removed = await newUser("DEVELOPER");
    const changedSession = await signIn(changed.email, PASSWORD);
    const removedSession = await signIn(removed.email, PASSWORD);
    expect(await sessionWorks(changedSession.jar)).toEqual({ page: true, session: true });

    const page = await browser.context.newPage();
    page.on("dialog", (dialog) => void dialog.accept());
    await browserSignIn(page, owner.email, PASSWORD);
    await page.goto(`${service.baseUrl}/backoffice/settings/team`);
    const role = page.getByLabel(`Role of ${changed.email}`, { exact: true });
    const roleId = await role.getAttribute("id");
    await role.selectOption("VIEWER");
    // Without the password: refused, the role stays.
    await page.getByRole("button", { name: `Save role of ${changed.email}` }).click();
    await expect.poll(() => page.getByText(/Enter your password to confirm|Check the highlighted fields/).count(), { timeout: 30_000 }).toBeGreaterThan(0);
    expect((await database.query(`SELECT "role" FROM "User" WHERE "id" = $1`, [changed.id])).rows[0].role).toBe("DEVELOPER");
    // React resets a form after its action: choose the role again, now with the password.
    await role.selectOption("VIEWER");
    await page.locator(`#${roleId}-current-password`).fill(PASSWORD);
    await page.getByRole("button", { name: `Save role of ${changed.email}` }).click();
    await expect.poll(async () => (await database.query(`SELECT "role" FROM "User" WHERE "id" = $1`, [changed.id])).rows[0].role, { timeout: 30_000 }).toBe("VIEWER");
    expect(await sessionWorks(changedSession.jar)).toEqual({ page: false, session: false });

    const removeConfirm = page.locator(`#remove-${removed.id}-current-password`);
    await removeConfirm.fill(PASSWORD);
    await page.getByRole("button", { name: `Remove ${removed.email}` }).click();
    await expect.poll(async () => (await database.query(`SELECT count(*)::int AS n FROM "User" WHERE "id" = $1`, [removed.id])).rows[0].n, { timeout: 30_000 }).toBe(0);
    expect(await sessionWorks(removedSession.jar)).toEqual({ page: false, session: false });
    await page.close();
  });

  it("item 7: after a new TOTP secret, the user's other session cookies are refused and the session that made the change goes on", async () => {
    const user = await newUser("DEVELOPER");
    const other = await signIn(user.email, PASSWORD);
    const page = await browser.context.newPage();
    await browserSignIn(page, user.email, PASSWORD);
    await page.goto(`${service.baseUrl}/backoffice/account`);
    await page.locator("#totp-start-current-password").fill(PASSWORD);
    await page.getByRole("button", { name: "Turn on two-factor authentication" }).click();
    const secret = (await page.getByTestId("totp-secret").textContent())!.trim();
    await page.getByLabel("Code from your app").fill(await generate({ secret }));
    await page.getByRole("button", { name: "Confirm and turn on" }).click();
    // The factor is on: the recovery codes are shown once, until the user says they stored them;
    // then the account page offers to turn it off again.
    await page.getByRole("button", { name: "I have stored them" }).click({ timeout: 30_000 });
    await expect.poll(() => page.getByLabel("Current code from your app").count(), { timeout: 30_000 }).toBe(1);
    expect(await sessionWorks(other.jar)).toEqual({ page: false, session: false });
    // The browser that turned it on is still signed in (its session was issued again with the new version).
    await page.goto(`${service.baseUrl}/backoffice/account`);
    expect(page.url()).toMatch(/\/backoffice\/account$/);
    // The stored secret is sealed under the TOTP key's own format, not as a card number.
    const stored = (await database.query(`SELECT "totpSecret" FROM "User" WHERE "id" = $1`, [user.id])).rows[0].totpSecret as string;
    expect(stored.startsWith("totp1:")).toBe(true);
    await page.close();
  });

  it("item 7: creating an API key with a session cookie alone (no password) is refused", async () => {
    const owner = await newUser("OWNER");
    const page = await browser.context.newPage();
    await browserSignIn(page, owner.email, PASSWORD);
    await page.goto(`${service.baseUrl}/backoffice/settings/api-key`);
    const keyName = `Stolen-session key ${Date.now()}`;
    await page.getByLabel("Key name").fill(keyName);
    await page.getByRole("button", { name: "Create key" }).click();
    await expect.poll(() => page.getByText("Enter your password to confirm").count(), { timeout: 30_000 }).toBeGreaterThan(0);
    // React resets a form after its action: the name is typed again each time.
    await page.getByLabel("Key name").fill(keyName);
    await page.locator("#create-key-current-password").fill("not my password");
    await page.getByRole("button", { name: "Create key" }).click();
    await expect.poll(() => page.getByText("Your password is not correct.").count(), { timeout: 30_000 }).toBeGreaterThan(0);
    expect((await database.query(`SELECT count(*)::int AS n FROM "ApiKey" WHERE "name" = $1`, [keyName])).rows[0].n).toBe(0);
    await page.getByLabel("Key name").fill(keyName);
    await page.locator("#create-key-current-password").fill(PASSWORD);
    await page.getByRole("button", { name: "Create key" }).click();
    await expect.poll(() => page.getByTestId("new-api-key").count(), { timeout: 30_000 }).toBe(1);
    expect((await database.query(`SELECT count(*)::int AS n FROM "ApiKey" WHERE "name" = $1`, [keyName])).rows[0].n).toBe(1);
    await page.close();
  });
});

describe("item 8: the back office cannot be framed", () => {
  it("item 8: back-office pages and next-auth's endpoints carry frame-ancestors 'none' and X-Frame-Options DENY; the hosted fields do not", async () => {
    for (const pathname of ["/backoffice/sign-in", "/backoffice", "/api/auth/csrf"]) {
      const response = await call(pathname);
      expect(response.headers.get("content-security-policy"), pathname).toContain("frame-ancestors 'none'");
      expect(response.headers.get("x-frame-options"), pathname).toBe("DENY");
      // Local mode is plain http: no HSTS there (production sends it, see the unit test).
      expect(response.headers.get("strict-transport-security"), pathname).toBeNull();
    }
    const field = await call("/dynamic/some-session/pan");
    expect(field.headers.get("content-security-policy") ?? "").not.toContain("frame-ancestors 'none'");
    expect(field.headers.get("x-frame-options")).toBeNull();
  });
});

/** Startup message, then a simple query, without answering any authentication request. */
async function rawQueryWithoutPassword(): Promise<string> {
  const { port } = JSON.parse(readFileSync(path.join(dataDir, "pglite.json"), "utf8")) as { port: number };
  const params = Buffer.from("user\0postgres\0database\0postgres\0\0");
  const startup = Buffer.alloc(8 + params.length);
  startup.writeInt32BE(8 + params.length, 0);
  startup.writeInt32BE(196608, 4);
  params.copy(startup, 8);
  const sql = Buffer.from('SELECT count(*) FROM "User"\0');
  const query = Buffer.alloc(5 + sql.length);
  query.write("Q", 0);
  query.writeInt32BE(4 + sql.length, 1);
  sql.copy(query, 5);
  const { connect } = await import("node:net");
  return new Promise((resolve) => {
    let received = Buffer.alloc(0);
    const socket = connect({ host: "127.0.0.1", port }, () => socket.write(Buffer.concat([startup, query])));
    const done = () => {
      socket.destroy();
      // 'D' (DataRow) after the startup answers means the query ran.
      resolve(received.includes(Buffer.from("D\0\0")) ? "ROWS" : "NO ROWS");
    };
    socket.on("data", (chunk: Buffer) => (received = Buffer.concat([received, chunk])));
    socket.on("error", done);
    socket.on("close", done);
    setTimeout(done, 3000);
  });
}

describe("item 9: the embedded database", () => {
  it("item 9: the data folder is 0700 and every file in it 0600, an existing loose folder included", () => {
    const loose = modesUnder(dataDir).filter((entry) => entry.mode !== (entry.directory ? 0o700 : 0o600));
    expect(loose).toEqual([]);
  });

  it("item 9: connecting to the embedded port without the password, or with a wrong one, fails; the generated password works", async () => {
    for (const password of ["", "postgres", "wrong-password-guess"]) {
      const client = new pg.Client({ connectionString: serviceDatabaseUrl(password), connectionTimeoutMillis: 10_000 });
      client.on("error", () => {});
      await expect(client.connect().then(() => client.query("SELECT count(*) FROM \"User\"")), `password "${password}"`).rejects.toThrow();
      await client.end().catch(() => {});
    }
    // A raw client that skips authentication and sends a query right after its startup message gets no rows.
    expect(await rawQueryWithoutPassword()).toBe("NO ROWS");
    const secrets = JSON.parse(readFileSync(path.join(dataDir, "secrets.json"), "utf8")) as { embeddedDbPassword?: string };
    expect(secrets.embeddedDbPassword).toMatch(/^[A-Za-z0-9_-]{24,}$/);
    const client = new pg.Client({ connectionString: serviceDatabaseUrl(secrets.embeddedDbPassword) });
    await client.connect();
    expect((await client.query("SELECT 1 AS one")).rows[0].one).toBe(1);
    await client.end();
  });
});
