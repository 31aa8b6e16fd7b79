// npm run cli -- <command>: operator commands. Also what tests and scripts use to set up data.
import { parseArgs } from "node:util";
import { ensureDatabaseUrl } from "../lib/db/embedded-postgres";
import { migrateDatabase } from "../lib/db/migrations";
import { config } from "../lib/env";
import { disconnectDb } from "../lib/db";
import { runCliCommand, CLI_USAGE, CliUsageError } from "../lib/cli/commands";
import { logToStandardError } from "../lib/observability/logger";

async function main(): Promise<number> {
  // Standard output is the command's result (--json is parsed by scripts); log lines, such as the
  // audit log's copy of what the command did, go to standard error.
  logToStandardError();
  const { values, positionals } = parseArgs({
    args: process.argv.slice(2),
    allowPositionals: true,
    options: {
      json: { type: "boolean", default: false },
      help: { type: "boolean", short: "h", default: false },
      name: { type: "string" },
      merchant: { type: "string" },
      email: { type: "string" },
      // Refused with a message (a password on the command line shows in ps and shell history).
      password: { type: "string" },
      role: { type: "string" },
      limit: { type: "string" },
      outcome: { type: "string" },
      reference: { type: "string" },
      reason: { type: "string" },
      scopes: { type: "string" },
      currency: { type: "string" },
      "per-payout": { type: "string" },
      "per-day": { type: "string" },
      // accounts ... (lib/cli/account-commands.ts)
      account: { type: "string" },
      processor: { type: "string" },
      "acquirer-merchant-id": { type: "string" },
      mcc: { type: "string" },
      "merchant-name": { type: "string" },
      country: { type: "string" },
      descriptor: { type: "string" },
      currencies: { type: "string" },
      mode: { type: "string" },
      "bin-visa": { type: "string" },
      "bin-mastercard": { type: "string" },
      "bin-amex": { type: "string" },
      enabled: { type: "boolean" },
      disabled: { type: "boolean" },
      "credentials-file": { type: "string" },
      credential: { type: "string", multiple: true },
      "clearhaus-merchant-id": { type: "string" },
    },
  });
  if (values.help || positionals.length === 0) {
    console.log(CLI_USAGE);
    return positionals.length === 0 && !values.help ? 2 : 0;
  }
  const stop = await ensureDatabaseUrl();
  try {
    await migrateDatabase(config().DATABASE_URL!, { upgradeMode: config().defaultMode });
    const result = await runCliCommand(positionals, values);
    console.log(values.json ? JSON.stringify(result.data, null, 2) : result.text);
    return 0;
  } finally {
    await disconnectDb();
    await stop();
  }
}

main()
  .then((code) => process.exit(code))
  .catch((error) => {
    if (error instanceof CliUsageError) {
      console.error(`${error.message}\n\n${CLI_USAGE}`);
      process.exit(2);
    }
    console.error(`error: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  });
