// The generated clients a merchant would make, made exactly as docs/integration.md tells them, from
// the documents a running service serves, then compiled and used for one real call each:
//   1. openapi-typescript from /api/openapi.json, with openapi-fetch: a minimal initdynamic;
//   2. openapi-generator typescript-fetch from /api/openapi-3.0.json: the same call;
//   3. openapi-generator go from /api/openapi-3.0.json: the same call, with Go's standard library.
// The generator lines are read from the block after `<!-- openapi-clients -->` in docs/integration.md
// and run as written with BASE set; the only change is the path of openapi-generator's jar
// (scripts/openapi/generator-jar.sh fetches and verifies the official 7.0.0 jar). The service is
// started as `npm start` starts it (scripts/start.ts, a fresh data folder, its demo merchant), on
// OPENAPI_CHECK_PORT (default 3236), and stopped by its process group at the end.
// Needs java and go (Debian's default-jre-headless and golang-go). Exit 0 only when all three work.
import { execFileSync, spawn, spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";

/**
 * Warnings openapi-generator prints about its own options, whatever the document: typescript-fetch
 * reads a boolean option nobody passed and says it defaults to false. Every other WARN or ERROR line
 * is about the served document and fails the check.
 */
const GENERATOR_OWN_WARNINGS = [/The value \(generator's option\) must be either boolean or string\. Default to `false`\./];

const ROOT = path.resolve(import.meta.dirname, "../..");
const PORT = Number(process.env.OPENAPI_CHECK_PORT ?? 3236);
const BASE = `http://localhost:${PORT}`;
const OUT = path.join(ROOT, "test-results/openapi/clients");

function step(message: string): void {
  console.log(`clients check: ${message}`);
}

/** The shell lines of the block after the marker in docs/integration.md. */
function documentedGeneratorLines(): string[] {
  const text = readFileSync(path.join(ROOT, "docs/integration.md"), "utf8");
  const marker = text.indexOf("<!-- openapi-clients -->");
  if (marker === -1) throw new Error("docs/integration.md has no <!-- openapi-clients --> block");
  const block = /```bash\n([\s\S]*?)```/.exec(text.slice(marker));
  if (!block) throw new Error("no bash block after <!-- openapi-clients --> in docs/integration.md");
  return block[1]!
    .split("\n")
    .map((line) => line.trim())
    .filter((line) => line !== "" && !line.startsWith("#"));
}

function run(command: string, args: string[], options: { cwd: string; env?: Record<string, string>; what: string }): string {
  const result = spawnSync(command, args, { cwd: options.cwd, env: { ...process.env, ...options.env }, encoding: "utf8", maxBuffer: 64 * 1024 * 1024 });
  const output = `${result.stdout ?? ""}${result.stderr ?? ""}`;
  if (result.status !== 0) throw new Error(`${options.what} failed (exit ${result.status}):\n${output.slice(-6000)}`);
  return output;
}

async function startService(dataDir: string): Promise<() => void> {
  const child = spawn(path.join(ROOT, "node_modules/.bin/tsx"), ["scripts/start.ts"], {
    cwd: ROOT,
    detached: true,
    env: { ...process.env, PORT: String(PORT), DATA_DIR: dataDir, NEXT_TELEMETRY_DISABLED: "1", THREEDS_SANDBOX_PORT: "0" },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout!.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on("data", (chunk: Buffer) => (output += chunk.toString()));
  const stop = () => {
    try {
      process.kill(-child.pid!, "SIGTERM");
    } catch {
      // already gone
    }
  };
  const deadline = Date.now() + 5 * 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the service exited with ${child.exitCode}:\n${output.slice(-4000)}`);
    try {
      if ((await fetch(`${BASE}/api/health`)).status === 200) return stop;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      stop();
      throw new Error(`the service was not healthy within 5 minutes:\n${output.slice(-4000)}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 1000));
  }
}

const SESSION_ID = /^[0-9a-f]{32}$/;

function expectSession(output: string, client: string): void {
  const sessionId = /sessionid=(\S+)/.exec(output)?.[1];
  if (!sessionId || !SESSION_ID.test(sessionId)) throw new Error(`${client}: no payment window was opened; output:\n${output.slice(-3000)}`);
  step(`${client}: compiled, and opened payment window ${sessionId}`);
}

async function main(): Promise<void> {
  for (const tool of ["java", "go"]) {
    if (spawnSync("sh", ["-c", `command -v ${tool}`]).status !== 0) throw new Error(`${tool} is not installed (apt-get install default-jre-headless golang-go)`);
  }
  const jar = execFileSync("bash", [path.join(ROOT, "scripts/openapi/generator-jar.sh")], { encoding: "utf8" }).trim();
  const lines = documentedGeneratorLines();
  rmSync(OUT, { recursive: true, force: true });
  mkdirSync(OUT, { recursive: true });
  mkdirSync(path.join(ROOT, ".data-test"), { recursive: true });
  const dataDir = mkdtempSync(path.join(ROOT, ".data-test/openapi-clients-"));
  // The build first, on its own (minutes on a first run, and it may not be cut short), then the start.
  step("building when the sources changed (scripts/start.ts --build-only)");
  run(path.join(ROOT, "node_modules/.bin/tsx"), ["scripts/start.ts", "--build-only"], { cwd: ROOT, env: { NEXT_TELEMETRY_DISABLED: "1" }, what: "the build" });
  step(`starting the service on ${BASE}`);
  const stop = await startService(dataDir);
  try {
    const demo = JSON.parse(readFileSync(path.join(dataDir, "demo.json"), "utf8")) as { merchantId: string; apiKey: string };
    const env = { BASE, CPS_API_KEY: demo.apiKey, CPS_MERCHANT_ID: demo.merchantId };
    // The documented lines, as written, in the output folder (inside the repository, so that the
    // programs below resolve openapi-fetch and typescript from its node_modules).
    for (const line of lines) {
      const command = line.replace(/\bopenapi-generator-cli\.jar\b/, jar);
      step(`$ ${line}`);
      const output = run("bash", ["-c", command], { cwd: OUT, env, what: line });
      if (command.includes("java -jar")) {
        const warnings = output.split("\n").filter((text) => /\b(WARN|ERROR)\b/.test(text) && !GENERATOR_OWN_WARNINGS.some((own) => own.test(text)));
        if (warnings.length > 0) throw new Error(`openapi-generator warned about the served document:\n${warnings.join("\n")}`);
      }
    }

    // 1. openapi-typescript + openapi-fetch: the minimal request the spec allows must compile.
    writeFileSync(
      path.join(OUT, "openapi-fetch-call.ts"),
      `import createClient from "openapi-fetch";
import type { paths } from "./api";

const client = createClient<paths>({ baseUrl: process.env.BASE!, headers: { Authorization: \`Basic \${btoa(\`\${process.env.CPS_API_KEY}:\`)}\` } });
const { data, error } = await client.POST("/api/initdynamic", {
  body: { merchantid: process.env.CPS_MERCHANT_ID!, merchantpaymentid: \`ts\${Date.now()}\`, amount: 1000, currency: "DKK" },
});
if (!data) throw new Error(JSON.stringify(error));
const sessionid: string = data.sessionid;
console.log(\`sessionid=\${sessionid}\`);
`,
    );
    const tsc = path.join(ROOT, "node_modules/.bin/tsc");
    // Compiled as a merchant's bundled TypeScript project is (Next.js, Vite: bundler resolution), where
    // the generators' extensionless relative imports (`./api`, typescript-fetch's `./runtime`) resolve.
    const tscArgs = ["--noEmit", "--strict", "--target", "es2022", "--module", "esnext", "--moduleResolution", "bundler", "--skipLibCheck", "--lib", "es2022,dom"];
    run(tsc, [...tscArgs, "openapi-fetch-call.ts"], { cwd: OUT, what: "tsc of the openapi-typescript client" });
    expectSession(run(path.join(ROOT, "node_modules/.bin/tsx"), ["openapi-fetch-call.ts"], { cwd: OUT, env, what: "the openapi-typescript call" }), "openapi-typescript + openapi-fetch");

    // 2. typescript-fetch: one API class per tag, the server from the served document.
    writeFileSync(
      path.join(OUT, "typescript-fetch-call.ts"),
      `import { Configuration, PaymentSessionsApi } from "./cps-typescript/index";

const api = new PaymentSessionsApi(new Configuration({ username: process.env.CPS_API_KEY!, password: "" }));
const session = await api.initDynamic({
  initDynamicRequest: { merchantid: process.env.CPS_MERCHANT_ID!, merchantpaymentid: \`tf\${Date.now()}\`, amount: 1000, currency: "DKK" },
});
const sessionid: string = session.sessionid;
console.log(\`sessionid=\${sessionid}\`);
`,
    );
    run(tsc, [...tscArgs, "typescript-fetch-call.ts"], { cwd: OUT, what: "tsc of the typescript-fetch client" });
    expectSession(run(path.join(ROOT, "node_modules/.bin/tsx"), ["typescript-fetch-call.ts"], { cwd: OUT, env, what: "the typescript-fetch call" }), "openapi-generator typescript-fetch");

    // 3. go: the standard library only, the server from the served document.
    const goDir = path.join(OUT, "cps-go");
    mkdirSync(path.join(goDir, "call"), { recursive: true });
    writeFileSync(
      path.join(goDir, "call/main.go"),
      `package main

import (
	"context"
	"fmt"
	"os"
	"time"

	cps "github.com/GIT_USER_ID/GIT_REPO_ID"
)

func main() {
	client := cps.NewAPIClient(cps.NewConfiguration())
	ctx := context.WithValue(context.Background(), cps.ContextBasicAuth, cps.BasicAuth{UserName: os.Getenv("CPS_API_KEY")})
	request := cps.NewInitDynamicRequest(os.Getenv("CPS_MERCHANT_ID"), int64(1000), "DKK")
	request.SetMerchantpaymentid(fmt.Sprintf("go%d", time.Now().UnixMilli()))
	session, _, err := client.PaymentSessionsAPI.InitDynamic(ctx).InitDynamicRequest(*request).Execute()
	if err != nil {
		fmt.Println(err)
		os.Exit(1)
	}
	fmt.Printf("sessionid=%s\\n", session.GetSessionid())
}
`,
    );
    const goEnv = { GOFLAGS: "-mod=mod", GOPROXY: "off", GOTOOLCHAIN: "local", GOCACHE: path.join(OUT, ".gocache"), GOPATH: path.join(OUT, ".gopath") };
    // The client package and the call; not the generator's own test/ folder, which imports testify
    // (a download a merchant's machine makes, and CI's offline module cache cannot).
    run("go", ["vet", ".", "./call"], { cwd: goDir, env: goEnv, what: "go vet of the go client" });
    expectSession(run("go", ["run", "./call"], { cwd: goDir, env: { ...goEnv, ...env }, what: "the go call" }), "openapi-generator go");
  } finally {
    stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

main().then(
  () => step("every documented generator made a client that compiles and calls the service"),
  (error: unknown) => {
    console.error(`clients check: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  },
);
