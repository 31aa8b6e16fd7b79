// Every command the documentation gives a user runs: each line of a shell block and each inline
// command of README.md, docs/*.md and packages/client/README.md, and each synopsis of the operator
// CLI's own usage text (`npm run -s cli -- --help`), against the fresh `npm start` of this suite, in
// bash, from the repository root, as a reader pastes it. Only the placeholders are filled (`<...>`,
// from what earlier commands printed or from fixtures made for them), the README's four variables
// are set, and order numbers are made unique per run. A command passes when it exits 0 and no JSON it
// answers is an error; a payment window it opens is paid in Chromium. A command that needs
// production, a PostgreSQL server of the reader's, the network, minutes of load, or that changes the
// repository, is in EXCEPTIONS with its reason; an exception that matches nothing fails, so the list
// stays true. A documented command that fails therefore fails CI.
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { existsSync, mkdtempSync, rmSync, statSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect, test, type Page } from "@playwright/test";
import { Webhook } from "standardwebhooks";
import { CLEARHAUS_SANDBOX_ACCOUNTS } from "@/lib/sandboxes/acquirers/clearhaus/accounts";
import { MERCHANT_API_SANDBOX_CLIENTS } from "@/lib/sandboxes/acquirers/clearhaus/merchant-api/clients";
import { FINARO_SANDBOX_ACCOUNTS } from "@/lib/sandboxes/acquirers/finaro/accounts";
import { WORLDLINE_SANDBOX_ACCOUNTS } from "@/lib/sandboxes/acquirers/bambora/worldline/accounts";
import { commandsOfMarkdown, commandsOfUsage, documentationFiles, expandNotation, withoutComments, type DocumentedCommand } from "../helpers/documented-commands";
import { E2E, demoCredentials, withServiceDatabase } from "../helpers/e2e/demo-service";
import { notified, useReadmeReceiver } from "../helpers/e2e/readme-receiver";
import { NEXT_YEAR, SHOP_ORIGIN, pay, typeCard, waitForCallback } from "../helpers/e2e/cardholder";

const ROOT = process.cwd();
/**
 * Unique per run of the suite and the same in every worker of it (a failed test restarts the worker,
 * and the commands after it must still name the orders made before it): the time the suite's fresh
 * data folder got its demo merchant.
 */
const RUN = Math.floor(statSync(path.resolve(E2E.dataDir, "demo.json")).mtimeMs).toString(36);
const DATA_DIR = path.resolve(E2E.dataDir);
/** The runner's own sandboxes (for `accounts test`), and the ports the documented `npm run sandbox` lines get. */
const SANDBOX_PORTS = { finaro: E2E.port + 11, clearhaus: E2E.port + 12, bambora: E2E.port + 13, threeds: E2E.port + 14 };
const DOCUMENTED_SANDBOX_PORTS = { finaro: E2E.port + 15, clearhaus: E2E.port + 16, bambora: E2E.port + 17, threeds: E2E.port + 18 };
/** Files the documented commands write into the working directory (removed after, when they were not there before). */
const WRITTEN_FILES = ["ch.json", "body.json", "openapi.json", "api.d.ts"];

interface Exception {
  match: RegExp;
  /** Only commands of this file (default: any). */
  file?: RegExp;
  reason: string;
}

/** The documented commands that are not run here, each with why. Reviewed: keep it short and true. */
const EXCEPTIONS: Exception[] = [
  { file: /^docs\/performance-history\.md$/, match: /./, reason: "a record of past benchmark runs on other machines (their ports, clusters and build folders), not instructions" },
  { match: /^npm install\b|^npm\s*install$/, reason: "installs the dependencies: the first step of .ci/run and of a fresh clone; this suite runs on the result" },
  { match: /(^|\s)npm (start|run dev)\b|^INNGEST_DEV=1 npm start|^DATABASE_URL=\S+ npm start/, reason: "starts the service: this suite runs against one started with `npm start` (playwright.config.ts)" },
  { match: /^(SKIP_E2E=1 )?npm (test|run test:\w+)\b|^bash \.ci\/run|^npm run (lint|typecheck)\b|^npx (vitest|playwright)\b|^E2E_PORT=\S+ .*npx playwright test/, reason: "the test suites and checks themselves: scripts/test.sh and .ci/run run them" },
  { match: /^npm run openapi:(lint|sdk|clients)\b/, reason: "the OpenAPI checks: scripts/test.sh runs each as a result of its own (scripts/openapi/)" },
  { match: /^npm run build\b/, reason: "the production build (minutes): .ci/run builds once, and the production cluster check runs what it built" },
  { match: /(^|\s)node dist\/|^NODE_ENV=production\b/, reason: "production: needs `npm run build` and production secrets; tests/ops/production-cluster.ts and tests/security/production-start.test.ts run dist/start.js and dist/cli.js" },
  { match: /^((BENCH_\w+|CPS_BUILD_NO_MINIFY|NEXT_DIST_DIR)=("[^"]*"|\S+) )*npm run bench\b/, reason: "benchmarks: minutes of load, meaningful on a quiet machine only (docs/performance.md)" },
  { match: /^perf (record|script)\b/, reason: "profiles the worker of a bench while it runs (root, perf), then reads that profile: the benchmarks above are not run here" },
  { match: /^(PG_TEST_\w+=\S+ )*bash scripts\/pg-test-cluster\.sh\b/, reason: "starts a PostgreSQL cluster on a fixed port: .ci/run and the integration suite use it" },
  { match: /^(createdb|pg_dump|pg_restore|psql)\b/, reason: "needs the reader's own PostgreSQL server and data (the backup runbook creates and restores databases)" },
  { match: /^npx inngest-cli\b|^INNGEST_EVENT_KEY=/, reason: "the Inngest server: downloaded from GitHub (no network here); server mode is covered by tests/integration/inngest" },
  { match: /^npm audit\b/, reason: "asks the npm registry's audit service, not this service" },
  { match: /^npm run db:(migration|generate)\b/, reason: "writes into the repository (a new migration; the generated Prisma client, which npm install makes)" },
  { match: /^npx tsx packages\/client\/scripts\/generate\.ts$/, reason: "rewrites packages/client/src/schema.d.ts; tests/unit/client-schema.test.ts runs the same generation and compares" },
  { match: /^apt-get\b/, reason: "installs system packages (root, Debian's mirror)" },
  { match: /^curl -u "\$KEY:"$|^curl -X PUT$|^node$/, reason: "not a command: a sentence naming curl's option for the key, an unsigned PUT, or the node user and runtime" },
  { match: /^java -jar openapi-generator-cli\.jar generate\b/, reason: "openapi-generator: npm run openapi:clients runs these lines as written, with the verified 7.0.0 jar, against a running service (scripts/openapi/clients-check.ts)" },
  { match: /^npx @openapitools\/openapi-generator-cli$/, reason: "downloads openapi-generator's jar from Maven Central (no network here); npm run openapi:clients uses the same generator from a verified jar" },
  { match: /\/api\/disputes\/<disputeid>/, reason: "needs a dispute, which only an acquirer opens (the Merchant API sandbox's scenario endpoint, on the service's in-process sandbox): tests/integration/disputes/disputes-against-the-sandbox.test.ts sends these requests over HTTP" },
  { match: /^npx tsx scratch\/shop\.ts$/, reason: "the reader's own script (no such file in the repository); tests/e2e/client-package.spec.ts runs the client README's example from scratch/ as written" },
];

/** Long-running commands: started, checked for the line that says they are up, then stopped. */
const LONG_RUNNING: Array<{ match: RegExp; ready: RegExp; extraArgs: string[] }> = [
  {
    match: /^npm run sandbox\b/,
    ready: /Clearhaus' docs/,
    extraArgs: ["--finaro", String(DOCUMENTED_SANDBOX_PORTS.finaro), "--clearhaus", String(DOCUMENTED_SANDBOX_PORTS.clearhaus), "--bambora", String(DOCUMENTED_SANDBOX_PORTS.bambora), "--threeds", String(DOCUMENTED_SANDBOX_PORTS.threeds)],
  },
];

function cliUsageText(): string {
  const help = spawnSync("npm", ["run", "-s", "cli", "--", "--help"], { cwd: ROOT, encoding: "utf8", env: { ...process.env, DATA_DIR } });
  if (help.status !== 0) throw new Error(`npm run -s cli -- --help exited ${help.status}: ${help.stderr}`);
  return help.stdout;
}

const documented: DocumentedCommand[] = [...commandsOfMarkdown(ROOT, documentationFiles(ROOT)), ...commandsOfUsage(cliUsageText(), "npm run -s cli --")];
const fileOf = (command: DocumentedCommand) => command.source.replace(/:\d+$/, "");
const exceptionOf = (command: DocumentedCommand) =>
  EXCEPTIONS.find((exception) => (!exception.file || exception.file.test(fileOf(command))) && exception.match.test(command.text.trim()));

/** What earlier commands printed, and fixtures made when a placeholder needs something not printed yet. */
const state: {
  merchantId?: string;
  accountId?: string;
  endpointId?: string;
  userEmail?: string;
  sandboxEnv: Record<string, string>;
  emails: number;
  fixturePaymentId?: string;
  reportingAccount?: { merchantId: string; id: string };
} = { sandboxEnv: {}, emails: 0 };

const readmeReceiver = useReadmeReceiver();
// The docs' reader has a notification address configured, as the demo merchant of a fresh start has
// (its demo receiver): the docs' MIT, payout and payment-details lines name none. The README
// receiver's set-up cleared it (for the README specs, which name theirs); this one is the reader's,
// the receiver standing in for NOTIFY_URL.
test.beforeAll(async () => {
  await withServiceDatabase((client) =>
    client.query(`UPDATE "Merchant" SET "testDefaultNotificationUrl" = $2 WHERE "id" = $1`, [demoCredentials().merchantId, readmeReceiver.current().url]),
  );
});
let sandbox: ChildProcess | undefined;
let sandboxBanner = "";
const preexisting = new Set(WRITTEN_FILES.filter((file) => existsSync(path.join(ROOT, file))));

// Not serial: a failing command must not keep the others from running. Tests run in file order in one
// worker (playwright.config.ts); what a restarted worker lost is made again by the lazy fixtures.

test.beforeAll(async () => {
  // The runner's own sandboxes, started as the docs say (`npm run sandbox`), on ports of this suite:
  // `accounts test` calls an acquirer from the CLI's process, which cannot reach the service's own.
  const started = await startLongRunning(`npm run sandbox -- ${Object.entries(SANDBOX_PORTS).flatMap(([name, port]) => [`--${name}`, String(port)]).join(" ")}`, /Clearhaus' docs/);
  sandbox = started.child;
  sandboxBanner = started.output;
  for (const match of started.output.matchAll(/^([A-Z_]+_TEST_[A-Z_]+)=(\S+)$/gm)) state.sandboxEnv[match[1]!] = match[2]!;
  // A live account in these docs is tested against the sandbox standing in for the acquirer.
  state.sandboxEnv.CLEARHAUS_BASE_URL = state.sandboxEnv.CLEARHAUS_TEST_BASE_URL!;
  state.sandboxEnv.FINARO_BASE_URL = state.sandboxEnv.FINARO_TEST_BASE_URL!;
  state.sandboxEnv.BAMBORA_BASE_URL = state.sandboxEnv.BAMBORA_TEST_BASE_URL!;
});

test.afterAll(async () => {
  if (sandbox?.pid) process.kill(-sandbox.pid, "SIGTERM");
  for (const file of WRITTEN_FILES) if (!preexisting.has(file)) rmSync(path.join(ROOT, file), { force: true });
});

/** Starts `command` in its own process group; resolves with its output once `ready` appears in it. */
function startLongRunning(command: string, ready: RegExp, timeoutMs = 90_000): Promise<{ child: ChildProcess; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn("bash", ["-c", command], { cwd: ROOT, detached: true, env: baseEnv(), stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    const timer = setTimeout(() => {
      if (child.pid) process.kill(-child.pid, "SIGTERM");
      reject(new Error(`${command}: no ${ready} within ${timeoutMs} ms; output:\n${output}`));
    }, timeoutMs);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      if (ready.test(output)) {
        clearTimeout(timer);
        resolve({ child, output });
      }
    };
    child.stdout!.on("data", onData);
    child.stderr!.on("data", onData);
    child.on("exit", (code) => {
      clearTimeout(timer);
      if (!ready.test(output)) reject(new Error(`${command} exited ${code} before it was ready:\n${output}`));
    });
  });
}

/**
 * The environment a reader has: PATH and HOME, the README's four variables, PASSWORD, and the data
 * folder the service was started with.
 */
function baseEnv(): NodeJS.ProcessEnv {
  const demo = demoCredentials();
  return {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    DATA_DIR,
    NEXT_TELEMETRY_DISABLED: "1",
    BASE: E2E.baseURL,
    KEY: demo.apiKey,
    MID: demo.merchantId,
    NOTIFY_URL: readmeReceiver.current().url,
    // The new user's password of running.md's `printf '%s\n' "$PASSWORD" | ... user create`.
    PASSWORD,
  } as unknown as NodeJS.ProcessEnv;
}

/** Runs `script` in bash from the repository root, standard input empty (as a pasted line with nothing typed after it). */
function shell(script: string, env: NodeJS.ProcessEnv = baseEnv(), timeoutMs = 180_000): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn("bash", ["-c", script], { cwd: ROOT, env, detached: true, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout!.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr!.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    const timer = setTimeout(() => {
      stderr += `\n(stopped after ${timeoutMs} ms)`;
      if (child.pid) process.kill(-child.pid, "SIGKILL");
    }, timeoutMs);
    child.on("close", (code) => {
      clearTimeout(timer);
      resolve({ code: code ?? 1, stdout, stderr });
    });
  });
}

async function cliJson<T>(args: string, stdin?: string): Promise<T> {
  const script = stdin === undefined ? `npm run -s cli -- ${args} --json` : `printf '%s' '${stdin.replaceAll("'", "'\\''")}' | npm run -s cli -- ${args} --json`;
  const result = await shell(script);
  expect(result.code, `fixture: ${script}\n${result.stderr}`).toBe(0);
  return JSON.parse(result.stdout) as T;
}

/** Reads what a command printed: the merchant, account, endpoint or user it made is what later placeholders name. */
function remember(stdout: string, command: string): void {
  const merchant = /"merchantid":\s*"(\d{12})"/.exec(stdout) ?? /merchantid\s+(\d{12})/.exec(stdout);
  if (/merchant create/.test(command) && merchant) state.merchantId = merchant[1];
  const account = /^([0-9a-f]{32}) {2}(finaro|clearhaus|bambora) /m.exec(stdout);
  // A live account's calls go to its acquirer's production endpoint, which this runner never reaches:
  // later `--account <accountid>` placeholders (accounts test, update) name a test account.
  if (/accounts add/.test(command) && !/--mode live/.test(command) && account) state.accountId = account[1];
  const endpoint = /^([0-9a-f]{32}) {2}(test|live) /m.exec(stdout);
  if (/webhooks add/.test(command) && endpoint) state.endpointId = endpoint[1];
  const user = /^User (\S+@\S+) \(/m.exec(stdout);
  if (/user create/.test(command) && user) state.userEmail = user[1];
}

async function merchantId(): Promise<string> {
  state.merchantId ??= (await cliJson<{ merchantid: string }>(`merchant create --name "Docs runner ${RUN}"`)).merchantid;
  return state.merchantId;
}

const finaroCredentials = { merchantId: FINARO_SANDBOX_ACCOUNTS[1]!.merchantId, signatureKey: FINARO_SANDBOX_ACCOUNTS[1]!.signatureKey };

async function accountId(): Promise<string> {
  if (!state.accountId) {
    const merchant = await merchantId();
    const account = await cliJson<{ id: string }>(
      `accounts add --merchant ${merchant} --processor finaro --name "Docs runner" --acquirer-merchant-id ${finaroCredentials.merchantId} --mcc 5999 --merchant-name Shop --country DK --descriptor Shop --currencies SEK --mode test --credentials-file -`,
      JSON.stringify(finaroCredentials),
    );
    state.accountId = account.id;
  }
  return state.accountId;
}

/**
 * A test account whose acquirer has a reporting API (the Clearhaus sandbox's first account), for
 * `accounts set-reporting-credentials`: the account placeholders of the other lines may name an
 * account whose acquirer publishes none. NOK, so it takes no currency a documented account takes.
 */
async function reportingAccountId(): Promise<string> {
  // The merchant the line's --merchant names: a later `merchant create` line makes another one current.
  const merchant = await merchantId();
  if (state.reportingAccount?.merchantId !== merchant) {
    const [account] = CLEARHAUS_SANDBOX_ACCOUNTS;
    const added = await cliJson<{ id: string }>(
      `accounts add --merchant ${merchant} --processor clearhaus --name "Docs runner reporting" --acquirer-merchant-id ${account!.merchantId} --mcc 5999 --merchant-name Shop --country DK --descriptor Shop --currencies NOK --mode test --credentials-file -`,
      JSON.stringify({ apiKey: account!.apiKey }),
    );
    state.reportingAccount = { merchantId: merchant, id: added.id };
  }
  return state.reportingAccount.id;
}

async function endpointId(): Promise<string> {
  if (!state.endpointId) {
    const endpoint = await cliJson<{ id: string }>(`webhooks add --merchant ${await merchantId()} --mode test --url ${receiverOrigin()}/docs-runner`);
    state.endpointId = endpoint.id;
  }
  return state.endpointId;
}

async function userEmail(): Promise<string> {
  if (!state.userEmail) {
    const email = nextEmail();
    await cliJson(`user create --merchant ${await merchantId()} --email ${email} --name "Docs Runner" --role viewer`, `${PASSWORD}\n`);
    state.userEmail = email;
  }
  return state.userEmail;
}

const PASSWORD = "violet tractor umbrella 42";
const nextEmail = () => `docs-${RUN}-${++state.emails}@shop.example`;
const receiverOrigin = () => new URL(readmeReceiver.current().url).origin;
const unique = (order: string) => `${order}x${RUN}`;

/** The paymentid of a payment of the demo merchant (by merchantpaymentid), through the API. */
async function paymentOf(order: string): Promise<{ paymentid: string; operations: Array<{ operationid: string; type: string }> }> {
  const demo = demoCredentials();
  const response = await fetch(`${E2E.baseURL}/api/${order}/payment?sync=1`, { headers: { Authorization: `Basic ${Buffer.from(`${demo.apiKey}:`).toString("base64")}` } });
  const body = (await response.json()) as Record<string, unknown>;
  expect(response.status, `payment ${order}: ${JSON.stringify(body)}`).toBe(200);
  return body as unknown as { paymentid: string; operations: Array<{ operationid: string; type: string }> };
}

/** A paid payment of the demo merchant for the operator fixtures (opened and paid as a cardholder would). */
async function fixturePayment(page: Page): Promise<string> {
  if (!state.fixturePaymentId) {
    const demo = demoCredentials();
    // Its own order per worker: a worker restarted after a failed test has lost state.fixturePaymentId,
    // and the order of the one before it is taken.
    const order = `${unique("fixture")}w${process.pid}`;
    const response = await fetch(`${E2E.baseURL}/api/initdynamic`, {
      method: "POST",
      headers: { Authorization: `Basic ${Buffer.from(`${demo.apiKey}:`).toString("base64")}`, "Content-Type": "application/json" },
      body: JSON.stringify({ merchantid: demo.merchantId, merchantpaymentid: order, amount: 12500, currency: "DKK", notificationurl: readmeReceiver.current().url }),
    });
    const session = (await response.json()) as Record<string, unknown>;
    await payWindow(page, session);
    state.fixturePaymentId = (await paymentOf(order)).paymentid;
  }
  return state.fixturePaymentId;
}

/** A capture of the fixture payment whose outcome is unknown and left for an operator (what `operations waiting` lists). */
async function waitingOperation(page: Page): Promise<string> {
  const paymentId = await fixturePayment(page);
  const id = `${RUN}${Math.random().toString(16).slice(2)}`.replace(/[^0-9a-z]/g, "").padEnd(32, "0").slice(0, 32);
  await withServiceDatabase((client) =>
    client.query(
      `INSERT INTO "Operation" ("id","paymentId","type","amount","currency","status","processor","acquirerAccountId","referencedOperationId","responseId","outcomeUnknownSince","callEndedAt","operatorAlertedAt","lookupAttempts")
       SELECT $1::text, a."paymentId", 'capture', 100, a."currency", 'pending', a."processor", a."acquirerAccountId", a."id", $1::text, now() - interval '1 hour', now() - interval '1 hour', now(), 10
       FROM "Operation" a WHERE a."paymentId" = $2 AND a."type" = 'authorize' AND a."status" = 'approved' LIMIT 1`,
      [id, paymentId],
    ),
  );
  return id;
}

/** An operation an acquirer contradicted after it was settled (what `operations acknowledge` closes). */
async function contradictedOperation(page: Page): Promise<string> {
  const paymentId = await fixturePayment(page);
  const { rows } = await withServiceDatabase((client) =>
    client.query<{ id: string }>(
      `UPDATE "Operation" SET "lateAnswer" = 'the acquirer answered approved after it was settled declined', "lateAnswerAt" = now()
       WHERE "id" = (SELECT "id" FROM "Operation" WHERE "paymentId" = $1 AND "lateAnswerAt" IS NULL ORDER BY "createdAt" LIMIT 1) RETURNING "id"`,
      [paymentId],
    ),
  );
  return rows[0]!.id;
}

/** Pays the window a command opened, on the demo shop (another origin than the fields), with 4111... */
async function payWindow(page: Page, session: Record<string, unknown>): Promise<void> {
  await page.goto(`${SHOP_ORIGIN}/demo-shop?${new URLSearchParams({ sessionid: String(session.sessionid), amount: String(session.amount), currency: String(session.currency) })}`);
  await waitForCallback(page, "jsinitsuccess");
  // The demo shop names the session's own order (newcomer review 4, N14), whatever the query says.
  if (session.merchantpaymentid) await expect(page.locator("#order")).toContainText(String(session.merchantpaymentid));
  await typeCard(page, { pan: "4111111111111111", month: "12", year: NEXT_YEAR, cvc: "123" });
  await pay(page);
  await waitForCallback(page, "jspaymentsuccess");
  await expect(page.locator("#outcome")).toHaveText("Paid: thank you for your order.");
}

/** Replaces `pattern` in `text`, one match at a time, with what `value` gives for it. */
async function fill(text: string, pattern: RegExp, value: (match: RegExpExecArray) => Promise<string> | string): Promise<string> {
  let result = text;
  for (let match = pattern.exec(result); match; match = pattern.exec(result)) {
    const replacement = await value(match);
    result = result.slice(0, match.index) + replacement + result.slice(match.index + match[0].length);
  }
  return result;
}

/** The command with its placeholders filled; the README's order numbers made unique. */
async function prepare(command: DocumentedCommand, page: Page): Promise<{ script: string; env: NodeJS.ProcessEnv }> {
  let text = command.kind === "block" ? command.text : expandNotation(command.text);
  let setup = command.setup.join("\n");
  text = text.replace(/\border(\d{4})\b/g, (_, digits: string) => unique(`order${digits}`));
  text = text.replaceAll("./.data/", `./${path.relative(ROOT, DATA_DIR)}/`);
  text = text.replaceAll("https://shop.example", receiverOrigin());
  text = await fill(text, /--merchant <[^>]+>/, async () => `--merchant ${await merchantId()}`);
  // Reporting credentials go to an account of an acquirer with a reporting API, as the sandbox's client.
  if (/accounts set-reporting-credentials/.test(text)) {
    text = await fill(text, /--account <[^>]+>/, async () => `--account ${await reportingAccountId()}`);
    text = await fill(text, /--credentials-file <file>/, () => {
      const file = path.join(mkdtempSync(path.join(os.tmpdir(), "cps-docs-")), "merchant-api.json");
      const client = MERCHANT_API_SANDBOX_CLIENTS[0]!;
      writeFileSync(file, JSON.stringify({ clientId: client.clientId, clientSecret: client.clientSecret }), { mode: 0o600 });
      return `--credentials-file ${file}`;
    });
  }
  text = await fill(text, /--account <[^>]+>/, async () => `--account ${await accountId()}`);
  text = await fill(text, /--endpoint <[^>]+>/, async () => `--endpoint ${await endpointId()}`);
  text = await fill(text, /operations settle <operationid>/, async () => `operations settle ${await waitingOperation(page)}`);
  text = await fill(text, /operations acknowledge <operationid>/, async () => `operations acknowledge ${await contradictedOperation(page)}`);
  text = await fill(text, /user reset-password <email>/, async () => `user reset-password ${await userEmail()}`);
  text = await fill(text, /--email <email>/, () => `--email ${nextEmail()}`);
  text = await fill(text, /<stored paymentid>/, async () => (await paymentOf(unique("order1001"))).paymentid);
  text = await fill(text, /operationid=<operationid>/, async () => `operationid=${(await paymentOf(unique("order1001"))).operations[0]!.operationid}`);
  text = await fill(text, /--url <[^>]+>/, () => `--url ${receiverOrigin()}/endpoint-${RUN}`);
  text = await fill(text, /--credentials-file <file>/, () => {
    const file = path.join(mkdtempSync(path.join(os.tmpdir(), "cps-docs-")), "finaro.json");
    writeFileSync(file, JSON.stringify(finaroCredentials), { mode: 0o600 });
    return `--credentials-file ${file}`;
  });
  const values: Array<[RegExp, string]> = [
    [/<uuid from Clearhaus>/, CLEARHAUS_SANDBOX_ACCOUNTS[1]!.apiKey],
    [/<PSPID>/, WORLDLINE_SANDBOX_ACCOUNTS[0]!.merchantId],
    [/<API key id>/, WORLDLINE_SANDBOX_ACCOUNTS[0]!.apiKeyId],
    [/<MID>/, "81234567"],
    [/<15-digit merchant_id>/, CLEARHAUS_SANDBOX_ACCOUNTS[1]!.merchantId],
    [/--acquirer-merchant-id <[^>]+>/, `--acquirer-merchant-id ${finaroCredentials.merchantId}`],
    [/--bin-visa <bin>/, "--bin-visa 411111"],
    [/--bin-mastercard <bin>/, "--bin-mastercard 522222"],
    [/--bin-amex <bin>/, "--bin-amex 371449"],
    [/<password, 12\+ characters>/, PASSWORD],
    [/<acquirer('s)? (transaction )?id>/, `ch-${RUN}`],
    [/<kind,kind,\.\.\.>/, "capture,refund"],
    [/<n>/, "5"],
    [/<0\.\.86400>/, "3600"],
    [/<minor units>/, "500000"],
    [/<ISO code>/, "DKK"],
    [/<4 digits>/, "5999"],
    [/<CC>/, "DK"],
    [/<EUR,DKK\|any>/, "EUR"],
    [/<15 digits>/, CLEARHAUS_SANDBOX_ACCOUNTS[1]!.merchantId],
    [/<list>/, "payments,follow-ups,read"],
    [/"<what you checked>"/, '"checked in the acquirer\'s dashboard"'],
    [/"<what you did>"/, '"refunded the late capture at the acquirer"'],
    [/<(name|label|text)>/, '"Docs Shop"'],
  ];
  for (const [pattern, value] of values) text = await fill(text, new RegExp(pattern.source), () => value);
  sharedPage = page;
  if (/SECRET=whsec_\.\.\./.test(setup)) setup = await signatureExample(setup);
  // operations.md's Worldline account: its secret API key comes on standard input, as the docs say.
  if (/--platform worldline/.test(text) && /--credentials-file -/.test(text))
    text = `printf '%s' '${JSON.stringify({ secretApiKey: WORLDLINE_SANDBOX_ACCOUNTS[0]!.secretApiKey })}' | ${text}`;
  // The usage text says a new user's password comes on standard input (never an argument).
  if (command.kind === "synopsis" && /-- user create /.test(text)) text = `printf '%s\\n' "$PASSWORD" | ${text}`;
  // Anything still to fill is a placeholder the docs leave unexplained: the test says which.
  const left = /<[a-z][^<>]*>|…|\.\.\./i.exec(withoutComments(text).replace(/<<-?\s*\w+/g, ""));
  expect(left, `${command.source}: placeholder ${left?.[0]} is not filled by this test (add a value, or write the docs so a reader knows what to put there)\n${text}`).toBeNull();
  const env = { ...baseEnv(), ...(/accounts test/.test(text) ? state.sandboxEnv : {}) };
  return { script: setup ? `${setup}\n${text}` : text, env };
}

/**
 * integration.md's shell check of a signature, on a notification this suite received: the setup line's
 * example values become the demo merchant's secret (`.data/demo.json`) and that notification's id and
 * timestamp, body.json its exact bytes; the command must print the signature the notification carries.
 */
let expectedSignature: string | undefined;
/** The page of the test being prepared (a fixture payment is paid in it). */
let sharedPage: Page | undefined;
async function signatureExample(setup: string): Promise<string> {
  const secret = demoCredentials().notificationSecret;
  expect(secret, "demo.json holds the demo merchant's notification signing secret").toMatch(/^whsec_/);
  const receiver = readmeReceiver.current();
  const signed = () => receiver.received.filter((n) => n.path === new URL(receiver.url).pathname && typeof n.headers["webhook-signature"] === "string").at(-1);
  if (!signed()) {
    // None received in this worker yet: the payment details of a paid payment, notified here.
    const demo = demoCredentials();
    const paymentId = await fixturePayment(sharedPage!);
    await fetch(`${E2E.baseURL}/api/${paymentId}/payment?${new URLSearchParams({ notificationurl: receiver.url })}`, {
      headers: { Authorization: `Basic ${Buffer.from(`${demo.apiKey}:`).toString("base64")}` },
    });
    await notified(receiver, (n) => n.headers["x-cps-notification-kind"] === "payment-details", "payment details");
  }
  const notification = signed();
  expect(notification, "a notification to check (an earlier command was notified)").toBeDefined();
  const headers = notification!.headers as Record<string, string>;
  new Webhook(secret!).verify(notification!.rawBody, headers);
  writeFileSync(path.join(ROOT, "body.json"), notification!.rawBody);
  expectedSignature = headers["webhook-signature"]!.split(" ").map((part) => part.split(",")[1]!)[0];
  return setup.replace("whsec_...", secret!).replace("msg_...", headers["webhook-id"]!).replace("1767225600", headers["webhook-timestamp"]!);
}

/** The JSON values in `stdout` (a curl answer, several in a row, or a CLI's --json), none if it is not JSON. */
function jsonValues(stdout: string): unknown[] {
  const values: unknown[] = [];
  for (const line of stdout.split(/\n(?=[{[])/)) {
    try {
      values.push(JSON.parse(line));
    } catch {
      // not JSON: a CLI's text output, a number, a signature
    }
  }
  return values;
}

const titles = new Map<string, number>();
const titleOf = (command: DocumentedCommand) => {
  const base = `${command.source}: ${command.text.split("\n")[0]!.slice(0, 90)}`;
  const seen = titles.get(base) ?? 0;
  titles.set(base, seen + 1);
  return seen === 0 ? base : `${base} (${seen + 1})`;
};

test("the commands found include the ones a reader needs first (the finder itself works)", () => {
  const texts = documented.map((command) => command.text);
  expect(texts.some((text) => text.startsWith("curl -s -X POST $BASE/api/initdynamic"))).toBe(true);
  expect(texts.some((text) => text.startsWith("npm run -s cli -- webhooks add"))).toBe(true);
  expect(documented.filter((command) => command.kind === "synopsis").map((command) => command.text)).toContainEqual(expect.stringContaining("webhooks roll-secret"));
  expect(documented.length).toBeGreaterThan(60);
});

test("every exception names documented commands, with a reason", () => {
  for (const exception of EXCEPTIONS) {
    expect(exception.reason.length, String(exception.match)).toBeGreaterThan(20);
    expect(
      documented.some((command) => exceptionOf(command) === exception),
      `exception ${exception.match} matches no documented command: remove it`,
    ).toBe(true);
  }
});

test("the accounts add lines `npm run sandbox` prints give a merchant test accounts that reach the sandboxes (N8)", async () => {
  // Seven CLI runs, each a process that compiles and migrates first.
  test.setTimeout(900_000);
  const lines = sandboxBanner.split("\n").filter((line) => line.includes(" accounts add "));
  expect(lines.map((line) => /--processor (\w+)/.exec(line)?.[1])).toEqual(["finaro", "clearhaus", "bambora"]);
  const merchant = (await cliJson<{ merchantid: string }>(`merchant create --name "Sandbox accounts ${RUN}"`)).merchantid;
  for (const line of lines) {
    const filled = line.replaceAll("<merchantid>", merchant).replaceAll("<shop name>", "Docs Shop");
    const added = await shell(`${filled} --json`);
    expect(added.code, `${filled}\n${added.stderr}`).toBe(0);
    const account = JSON.parse(added.stdout) as { id: string };
    const tested = await shell(`npm run -s cli -- accounts test --merchant ${merchant} --account ${account.id}`, { ...baseEnv(), ...state.sandboxEnv });
    expect(tested.code, `accounts test after: ${filled}\n${tested.stdout}${tested.stderr}`).toBe(0);
    expect(tested.stdout).toMatch(/^OK: /);
  }
});

for (const command of documented) {
  if (exceptionOf(command)) continue;
  test(titleOf(command), async ({ page }) => {
    test.setTimeout(420_000);
    const { script, env } = await prepare(command, page);
    const long = LONG_RUNNING.find((entry) => entry.match.test(script));
    if (long) {
      const withPorts = script.includes(" -- ") ? `${script} ${long.extraArgs.join(" ")}` : `${script} -- ${long.extraArgs.join(" ")}`;
      const { child } = await startLongRunning(withPorts, long.ready);
      process.kill(-child.pid!, "SIGTERM");
      return;
    }
    const result = await shell(script, env);
    const shown = `${command.source}\n$ ${script}\nexit ${result.code}\nstdout: ${result.stdout.slice(0, 2000)}\nstderr: ${result.stderr.slice(-3000)}`;
    expect(result.code, shown).toBe(0);
    for (const value of jsonValues(result.stdout)) {
      if (value && typeof value === "object" && !Array.isArray(value)) expect(value, shown).not.toHaveProperty("error");
    }
    remember(result.stdout, script);
    if (expectedSignature && /openssl dgst/.test(script)) {
      expect(result.stdout.trim(), shown).toBe(expectedSignature);
      expectedSignature = undefined;
    }
    // A payment window it opened is paid as a cardholder pays it, so the commands after it can capture.
    for (const value of jsonValues(result.stdout)) {
      const session = value as Record<string, unknown>;
      if (session && typeof session.sessionid === "string" && typeof session.dfurlscriptinclude === "string") {
        await payWindow(page, session);
        await notified(readmeReceiver.current(), (n) => n.body.merchantpaymentid === session.merchantpaymentid && n.headers["x-cps-notification-kind"] === "completion", `completion of ${String(session.merchantpaymentid)}`);
      }
    }
  });
}
