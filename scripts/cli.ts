// npm run cli -- <command> (node dist/cli.js <command> in production): operator commands. Also what
// tests and scripts use to set up data. The commands, their options and the usage text are one table
// (lib/cli/commands.ts); an option a command does not declare is refused before anything runs.
import path from "node:path";
import { ensureDatabaseUrl } from "../lib/db/embedded-postgres";
import { migrateDatabase } from "../lib/db/migrations";
import { config } from "../lib/env";
import { disconnectDb } from "../lib/db";
import { runCliCommand, cliUsage, CliUsageError, CLI_COMMANDS } from "../lib/cli/commands";
import { parseCommandLine, synopsis } from "../lib/cli/cli-command";
import { logToStandardError } from "../lib/observability/logger";

/** How the operator invoked the CLI, for the usage line: the compiled file, or the npm script. */
function invokedAs(): string {
  const script = process.argv[1] ?? "";
  if (script.endsWith(".js")) return `node ${path.relative(process.cwd(), script) || script}`;
  return "npm run -s cli --";
}

async function main(argv: string[]): Promise<number> {
  // Standard output is the command's result (--json is parsed by scripts); log lines, such as the
  // audit log's copy of what the command did, go to standard error.
  logToStandardError();
  const words = argv.filter((arg) => !arg.startsWith("-"));
  const asksForHelp = argv.includes("--help") || argv.includes("-h");
  if (words.length === 0) {
    console.log(cliUsage(invokedAs()));
    return asksForHelp ? 0 : 2;
  }
  if (asksForHelp) {
    const command = CLI_COMMANDS.find((candidate) => candidate.words === words.slice(0, 2).join(" "));
    console.log(command ? `usage: ${invokedAs()}${synopsis(command).slice(1)}\n      ${command.description.split("\n").join("\n      ")}` : cliUsage(invokedAs()));
    return 0;
  }
  // Refused before the database is opened: an unknown command or option, a missing required one.
  parseCommandLine(CLI_COMMANDS, argv);
  const stop = await ensureDatabaseUrl();
  try {
    await migrateDatabase(config().DATABASE_URL!, { upgradeMode: config().defaultMode });
    const result = await runCliCommand(argv);
    console.log(argv.includes("--json") ? JSON.stringify(result.data, null, 2) : result.text);
    return result.exitCode ?? 0;
  } finally {
    await disconnectDb();
    await stop();
  }
}

main(process.argv.slice(2))
  .then((code) => process.exit(code))
  .catch((error) => {
    if (error instanceof CliUsageError) {
      console.error(`error: ${error.message}\n(${invokedAs()} --help lists every command and option)`);
      process.exit(2);
    }
    console.error(`error: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  });
