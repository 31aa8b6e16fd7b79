// One table of the operator CLI's commands: each command declares its words, its positional
// arguments and every option it takes, and from that one declaration come the argument parser (an
// option a command does not declare is refused, naming the command's options), the check of required
// options and the usage text. A documented option that the parser does not know cannot happen.
import { parseArgs } from "node:util";

export type Options = Record<string, string | boolean | string[] | undefined>;

export interface CliResult {
  text: string;
  data: unknown;
  /** Non-zero when the command ran but what it checked failed (e.g. `accounts test`); default 0. */
  exitCode?: number;
}

export interface CliOption {
  type: "string" | "boolean";
  /** May be given more than once (collected into a list). */
  multiple?: boolean;
  /** What the value looks like in the usage text: `<id>`, `test|live`, `<minor units>`. */
  value?: string;
  required?: boolean;
  /**
   * Declared so that it is refused with this message (a password on the command line shows in ps
   * and in shell history); never shown in the usage text.
   */
  refused?: string;
  /** Left out of the synopsis (an alternative spelled out in the description instead). */
  hidden?: boolean;
}

export interface CliCommand {
  /** The command's words, e.g. `webhooks add`. */
  words: string;
  /** Positional arguments after the words, e.g. `<email>`; all required. */
  args?: readonly string[];
  options: Readonly<Record<string, CliOption>>;
  /** What it does, one or more lines (shown under the synopsis). */
  description: string;
  run: (options: Options, args: string[]) => Promise<CliResult>;
}

export class CliUsageError extends Error {}

/** Options every command takes. */
export const GLOBAL_OPTIONS: Readonly<Record<string, CliOption>> = {
  json: { type: "boolean" },
  help: { type: "boolean" },
};

const WIDTH = 112;
const INDENT = "      ";

function optionText(name: string, option: CliOption): string {
  const text = option.type === "boolean" ? `--${name}` : `--${name} ${option.value ?? `<${name}>`}${option.multiple ? " ..." : ""}`;
  return option.required ? text : `[${text}]`;
}

/**
 * The synopsis of one command: its words, arguments and options, wrapped; the first line indented by
 * two spaces, continuation lines by four (the description under it by six).
 */
export function synopsis(command: CliCommand): string {
  const parts = [command.words, ...(command.args ?? []), ...Object.entries(command.options).filter(([, option]) => !option.refused && !option.hidden).map(([name, option]) => optionText(name, option))];
  const lines: string[] = [];
  let line = " ";
  for (const part of parts) {
    if (line.length + part.length + 1 > WIDTH && line.trim() !== "") {
      lines.push(line);
      line = "   ";
    }
    line += ` ${part}`;
  }
  lines.push(line);
  return lines.join("\n");
}

/** The usage text: how the CLI is invoked, then every command's synopsis and description. */
export function usageText(commands: readonly CliCommand[], invokedAs: string): string {
  const blocks = commands.map((command) => `${synopsis(command)}\n${command.description.split("\n").map((line) => `${INDENT}${line}`).join("\n")}`);
  return `usage: ${invokedAs} <command> [options] [--json]

Every command takes --json (only the JSON result on standard output) and --help.
<…> is a value to fill in, [ ] is optional, a|b is one of the two.

${blocks.join("\n\n")}`;
}

export interface ParsedCommandLine {
  command: CliCommand;
  options: Options;
  args: string[];
}

/** Finds the command named by the first words of `argv` and parses the rest with its options only. */
export function parseCommandLine(commands: readonly CliCommand[], argv: readonly string[]): ParsedCommandLine {
  const words = argv.filter((arg) => !arg.startsWith("-")).slice(0, 2).join(" ");
  const command = commands.find((candidate) => candidate.words === words);
  if (!command) {
    const first = words.split(" ")[0] ?? "";
    const near = commands.filter((candidate) => candidate.words.startsWith(`${first} `)).map((candidate) => candidate.words);
    throw new CliUsageError(`unknown command: ${words || "(none)"}${near.length > 0 ? ` (${first} takes: ${near.join(", ")})` : ""}`);
  }
  const declared = { ...command.options, ...GLOBAL_OPTIONS };
  let parsed: ReturnType<typeof parseArgs>;
  try {
    parsed = parseArgs({
      args: [...argv],
      allowPositionals: true,
      strict: true,
      options: Object.fromEntries(Object.entries(declared).map(([name, option]) => [name, { type: option.type, multiple: option.multiple ?? false }])),
    });
  } catch (error) {
    const unknown = /Unknown option '([^']+)'/.exec(error instanceof Error ? error.message : "")?.[1];
    const known = Object.entries(command.options)
      .filter(([, option]) => !option.refused)
      .map(([name]) => `--${name}`)
      .join(", ");
    if (unknown) throw new CliUsageError(`${command.words} does not take ${unknown} (its options: ${known || "none"}, --json)`);
    throw new CliUsageError(`${command.words}: ${error instanceof Error ? error.message : String(error)}`);
  }
  const options = parsed.values as Options;
  for (const [name, option] of Object.entries(command.options)) {
    if (option.refused && options[name] !== undefined) throw new CliUsageError(option.refused);
  }
  const args = parsed.positionals.slice(command.words.split(" ").length);
  const expected = command.args ?? [];
  if (args.length < expected.length) throw new CliUsageError(`${command.words} needs ${expected.slice(args.length).join(" ")}`);
  if (args.length > expected.length) throw new CliUsageError(`${command.words} takes ${expected.length === 0 ? "no arguments" : expected.join(" ")}, not "${args.slice(expected.length).join(" ")}"`);
  if (!options.help) {
    const missing = Object.entries(command.options).filter(([name, option]) => option.required && (options[name] === undefined || options[name] === ""));
    if (missing.length > 0) throw new CliUsageError(`${command.words} needs ${missing.map(([name, option]) => optionText(name, { ...option, required: true })).join(" ")}`);
  }
  return { command, options, args };
}
