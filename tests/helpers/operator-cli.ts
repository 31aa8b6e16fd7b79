// The operator CLI (scripts/cli.ts) as an operator runs it (`npm run cli`: scripts/run-script.mjs), against a test's database, with the
// same secrets as the test process so that keys and passwords it makes can be checked there.
import { execFile, spawn } from "node:child_process";
import { mkdtempSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { secretsEnv } from "./set-env";
import { RUN_SCRIPT } from "./service-process";

const run = promisify(execFile);

export interface CliResult {
  stdout: string;
  stderr: string;
  code: number;
}

/**
 * A `cli(...args)` bound to `databaseUrl()` (read at each call) and a fresh data folder;
 * `cli.withInput(stdin, ...args)` pipes `stdin` to it (passwords are read from standard input).
 */
export function operatorCli(databaseUrl: () => string, dataDirPrefix = "cps-cli-"): ((...args: string[]) => Promise<CliResult>) & {
  withInput: (stdin: string, ...args: string[]) => Promise<CliResult>;
} {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), dataDirPrefix));
  const env = () => ({
    ...process.env,
    DATABASE_URL: databaseUrl(),
    DATA_DIR: dataDir,
    ...secretsEnv(),
  });
  const cli = async (...args: string[]) => {
    try {
      const { stdout, stderr } = await run(process.execPath, [RUN_SCRIPT, "cli", ...args], { env: env() });
      return { stdout, stderr, code: 0 };
    } catch (error) {
      const failure = error as CliResult;
      return { stdout: failure.stdout, stderr: failure.stderr, code: failure.code };
    }
  };
  const withInput = (stdin: string, ...args: string[]) =>
    new Promise<CliResult>((resolve, reject) => {
      const child = spawn(process.execPath, [RUN_SCRIPT, "cli", ...args], { env: env(), stdio: ["pipe", "pipe", "pipe"] });
      let stdout = "";
      let stderr = "";
      child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
      child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
      child.on("error", reject);
      child.on("close", (code) => resolve({ stdout, stderr, code: code ?? 1 }));
      child.stdin.end(stdin);
    });
  return Object.assign(cli, { withInput });
}
