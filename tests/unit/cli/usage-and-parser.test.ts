// The operator CLI's usage text and its parser come from one table (lib/cli/cli-command.ts): every
// synopsis the usage prints parses, with every option it shows, and the parser refuses what no
// command declares. Also the notation the documented-commands runner reads from the usage text
// (tests/helpers/documented-commands.ts).
import { mkdtempSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { CLI_COMMANDS, cliUsage } from "@/lib/cli/commands";
import { CliUsageError, parseCommandLine } from "@/lib/cli/cli-command";
import { commandsOfMarkdown, commandsOfUsage, expandNotation, withoutComments } from "@/tests/helpers/documented-commands";

/** A synopsis as a command line: optional parts in, first alternatives, every `<...>` a dummy value. */
function argvOf(synopsis: string): string[] {
  const line = expandNotation(synopsis)
    .replace(/^npm run -s cli -- /, "")
    .replace(/"<[^>]*>"/g, "value")
    .replace(/<[^>]*>/g, "value");
  return line.split(" ").filter(Boolean);
}

describe("the CLI's usage text and parser", () => {
  const synopses = commandsOfUsage(cliUsage(), "npm run -s cli --");

  it("prints one synopsis per command of the table, in its words", () => {
    expect(synopses.map((command) => command.source.replace("cli --help: ", ""))).toEqual(CLI_COMMANDS.map((command) => command.words));
  });

  it("parses every synopsis it prints, with every option shown (none is undeclared)", () => {
    for (const synopsis of synopses) {
      const argv = argvOf(synopsis.text);
      const parsed = parseCommandLine(CLI_COMMANDS, argv);
      expect(parsed.command.words, synopsis.text).toBe(synopsis.source.replace("cli --help: ", ""));
      for (const option of synopsis.text.matchAll(/--([a-z][a-z0-9-]*)/g)) {
        if (option[1] === "json" || option[1] === "help") continue;
        expect(parsed.options[option[1]!], `${synopsis.source}: --${option[1]}`).toBeDefined();
      }
    }
  });

  it("refuses an option the command does not declare, and a missing required one, naming them", () => {
    expect(() => parseCommandLine(CLI_COMMANDS, ["webhooks", "add", "--merchant", "1", "--mode", "test", "--url", "https://x.example", "--colour", "red"])).toThrow(
      new CliUsageError("webhooks add does not take --colour (its options: --merchant, --mode, --url, --kinds, --description, --json)"),
    );
    expect(() => parseCommandLine(CLI_COMMANDS, ["webhooks", "add", "--merchant", "1"])).toThrow(/webhooks add needs --mode test\|live --url <https:\/\/\.\.\.>/);
    expect(() => parseCommandLine(CLI_COMMANDS, ["user", "create", "--merchant", "1", "--email", "a@b.example", "--name", "A", "--password", "x"])).toThrow(/--password is not accepted/);
    expect(() => parseCommandLine(CLI_COMMANDS, ["merchant", "explode"])).toThrow("unknown command: merchant explode (merchant takes: merchant create, merchant list)");
    expect(() => parseCommandLine(CLI_COMMANDS, ["operations", "settle"])).toThrow("operations settle needs <operationid>");
  });

  it("names the CLI as it was invoked", () => {
    expect(cliUsage("node dist/cli.js")).toMatch(/^usage: node dist\/cli\.js <command>/);
  });
});

describe("the documented-commands finder", () => {
  it("reads synopsis notation: optional parts in, first alternatives, pipes and placeholders kept", () => {
    expect(expandNotation("npm run -s cli -- runs list [--limit 50] [--json]")).toBe("npm run -s cli -- runs list --limit 50 --json");
    expect(expandNotation("npm run -s cli -- merchant list --json | jq length")).toBe("npm run -s cli -- merchant list --json | jq length");
    expect(expandNotation("x settle <id> --outcome approved|declined [--reference <acquirer's id>]")).toBe("x settle <id> --outcome approved --reference <acquirer's id>");
    expect(expandNotation("x --currencies <EUR,DKK|any> [--credentials-file <file>|-]")).toBe("x --currencies <EUR,DKK|any> --credentials-file <file>");
    expect(withoutComments(`npm run -s cli -- merchant create --json      # {"merchantid": "..."}`)).toBe("npm run -s cli -- merchant create --json      ");
    expect(withoutComments(`echo "a # b" # c`)).toBe(`echo "a # b" `);
  });

  it("finds block lines (continuations joined, assignments kept as setup) and inline commands, not prose", () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), "cps-docs-"));
    writeFileSync(
      path.join(dir, "doc.md"),
      [
        "Run `npm run -s cli -- merchant list` or read `lib/env.ts`.",
        "```bash",
        "SECRET=whsec_...; ID=msg_...",
        "curl -s -X POST $BASE/api/x -u \"$KEY:\" \\",
        "  -d '{\"a\":1,",
        "       \"b\":2}'",
        "# a comment",
        "```",
        "```",
        "Card Payment Service is running",
        "```",
      ].join("\n"),
    );
    const found = commandsOfMarkdown(dir, ["doc.md"]);
    expect(found.map((command) => [command.kind, command.text, command.setup])).toEqual([
      ["block", "curl -s -X POST $BASE/api/x -u \"$KEY:\" \\\n  -d '{\"a\":1,\n       \"b\":2}'", ["SECRET=whsec_...; ID=msg_..."]],
      ["inline", "npm run -s cli -- merchant list", []],
    ]);
  });
});
