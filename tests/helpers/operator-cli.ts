// The operator CLI (scripts/cli.ts) as an operator runs it, against a test's database, with the
// same secrets as the test process so that keys and passwords it makes can be checked there.
import { execFile } from "node:child_process";
import { mkdtempSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { config } from "@/lib/env";

const run = promisify(execFile);

export interface CliResult {
  stdout: string;
  stderr: string;
  code: number;
}

/** A `cli(...args)` bound to `databaseUrl()` (read at each call) and a fresh data folder. */
export function operatorCli(databaseUrl: () => string, dataDirPrefix = "cps-cli-"): (...args: string[]) => Promise<CliResult> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), dataDirPrefix));
  return async (...args) => {
    try {
      const { stdout, stderr } = await run(process.execPath, ["--import", "tsx", "scripts/cli.ts", ...args], {
        env: {
          ...process.env,
          DATABASE_URL: databaseUrl(),
          DATA_DIR: dataDir,
          SESSION_SECRET: config().secrets.sessionSecret,
          CARD_DATA_KEY: config().secrets.cardDataKey,
          API_KEY_SECRET: config().secrets.apiKeySecret,
        },
      });
      return { stdout, stderr, code: 0 };
    } catch (error) {
      const failure = error as CliResult;
      return { stdout: failure.stdout, stderr: failure.stderr, code: failure.code };
    }
  };
}
