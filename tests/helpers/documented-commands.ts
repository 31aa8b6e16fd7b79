// The command lines the documentation gives a user, found the way a reader finds them: every line of
// a shell block (```bash, ```sh, ```shell, or an unlabelled block whose lines start with a command),
// every inline code span that starts with a command, and every synopsis of the operator CLI's usage
// text. tests/e2e/documented-commands.spec.ts runs each (or names it in its list of exceptions).
import { readFileSync, readdirSync } from "node:fs";
import path from "node:path";

export interface DocumentedCommand {
  /** Where it is written: `docs/running.md:142`, or `cli --help: webhooks add`. */
  source: string;
  /** The command as written (continuation lines joined as bash joins them). */
  text: string;
  /** A block line is bash as written; an inline span or a synopsis uses the [optional] and a|b notation. */
  kind: "block" | "inline" | "synopsis";
  /** Assignments written before it in the same block (`SECRET=whsec_...; ID=msg_...`), run with it. */
  setup: string[];
}

/** The programs a documented command may start with (after `NAME=value` assignments). */
export const COMMAND_WORDS = [
  "npm",
  "npx",
  "node",
  "curl",
  "bash",
  "createdb",
  "psql",
  "pg_dump",
  "pg_restore",
  "openssl",
  "printf",
  "echo",
  "apt-get",
  "git",
] as const;

const ASSIGNMENT = /^[A-Z_][A-Z0-9_]*=(?:'[^']*'|"[^"]*"|\S)*$/;

/** The first word that is not a `NAME=value` assignment (quotes respected), or undefined. */
export function programOf(command: string): string | undefined {
  for (const word of shellWords(command)) {
    if (ASSIGNMENT.test(word)) continue;
    return word;
  }
  return undefined;
}

/** True when every word is an assignment (`BASE=http://...`, `SECRET=whsec_...; ID=...`). */
export function isOnlyAssignments(command: string): boolean {
  const words = shellWords(command.replace(/\s+#.*$/, "")).filter((word) => word !== ";");
  return words.length > 0 && words.every((word) => ASSIGNMENT.test(word.replace(/;$/, "")));
}

/** Words split as the shell would at the top level (quotes kept inside the words). */
function shellWords(command: string): string[] {
  const words: string[] = [];
  let current = "";
  let quote: string | undefined;
  for (const char of command) {
    if (quote) {
      current += char;
      if (char === quote) quote = undefined;
    } else if (char === "'" || char === '"') {
      quote = char;
      current += char;
    } else if (/\s/.test(char)) {
      if (current) words.push(current);
      current = "";
    } else current += char;
  }
  if (current) words.push(current);
  return words;
}

/** True while `text` has an unclosed quote (a JSON body written over several lines) or ends in `\`. */
function continues(text: string): boolean {
  if (/\\\s*$/.test(text)) return true;
  let quote: string | undefined;
  for (let index = 0; index < text.length; index++) {
    const char = text[index]!;
    if (quote) {
      if (char === quote) quote = undefined;
    } else if (char === "#" && (index === 0 || /\s/.test(text[index - 1]!))) {
      // A comment: the rest of the line is not read.
      const end = text.indexOf("\n", index);
      if (end === -1) break;
      index = end;
    } else if (char === "'" || char === '"') quote = char;
  }
  return quote !== undefined;
}

const startsWithCommand = (line: string) => {
  const program = programOf(line);
  return program !== undefined && (COMMAND_WORDS as readonly string[]).includes(program);
};

/** The commands of one shell block, each with the assignments written before it. */
function blockCommands(body: string, firstLine: number, file: string, labelled: boolean): DocumentedCommand[] {
  const commands: DocumentedCommand[] = [];
  const setup: string[] = [];
  const lines = body.split("\n");
  for (let index = 0; index < lines.length; index++) {
    const line = lines[index]!;
    if (line.trim() === "" || line.trim().startsWith("#")) continue;
    let text = line;
    const start = index;
    while (continues(text) && index + 1 < lines.length) text += `\n${lines[++index]!}`;
    if (isOnlyAssignments(text)) {
      setup.push(text);
      continue;
    }
    if (!labelled && !startsWithCommand(text)) continue;
    commands.push({ source: `${file}:${firstLine + start}`, text, kind: "block", setup: [...setup] });
  }
  return commands;
}

/** Every documented command of the Markdown files `files` (paths relative to `root`). */
export function commandsOfMarkdown(root: string, files: readonly string[]): DocumentedCommand[] {
  const commands: DocumentedCommand[] = [];
  for (const file of files) {
    const text = readFileSync(path.join(root, file), "utf8");
    const lineAt = (offset: number) => text.slice(0, offset).split("\n").length;
    const fences = [...text.matchAll(/^```(\w*)[^\n]*\n([\s\S]*?)^```/gm)];
    for (const fence of fences) {
      const language = fence[1]!;
      if (!["bash", "sh", "shell", ""].includes(language)) continue;
      const bodyLine = lineAt(fence.index!) + 1;
      commands.push(...blockCommands(fence[2]!, bodyLine, file, language !== ""));
    }
    // Inline spans outside the fences: blank the fences out, keeping offsets.
    let outside = text;
    for (const fence of fences) outside = outside.slice(0, fence.index!) + " ".repeat(fence[0].length) + outside.slice(fence.index! + fence[0].length);
    for (const span of outside.matchAll(/(?<!`)`([^`\n]+(?:\n[^`\n]+)?)`(?!`)/g)) {
      const command = span[1]!.replace(/\s*\n\s*/g, " ").trim();
      if (!startsWithCommand(command)) continue;
      commands.push({ source: `${file}:${lineAt(span.index!)}`, text: command, kind: "inline", setup: [] });
    }
  }
  return commands;
}

/** The Markdown files a user reads: the README, every guide in docs/, the client package's README. */
export function documentationFiles(root: string): string[] {
  return [
    "README.md",
    ...readdirSync(path.join(root, "docs"))
      .filter((name) => name.endsWith(".md"))
      .sort()
      .map((name) => `docs/${name}`),
    "packages/client/README.md",
  ];
}

/**
 * The synopses of the CLI's usage text (`--help`): a line indented by two spaces starting a command,
 * with its continuation lines (four spaces); descriptions (six spaces) are not commands.
 */
export function commandsOfUsage(usage: string, invokedAs: string): DocumentedCommand[] {
  const commands: DocumentedCommand[] = [];
  const lines = usage.split("\n");
  for (let index = 0; index < lines.length; index++) {
    const line = lines[index]!;
    if (!/^ {2}\S/.test(line)) continue;
    let text = line.trim();
    while (index + 1 < lines.length && /^ {4}\S/.test(lines[index + 1]!)) text += ` ${lines[++index]!.trim()}`;
    const words = text.split(" ").slice(0, 2).join(" ");
    commands.push({ source: `cli --help: ${words}`, text: `${invokedAs} ${text}`, kind: "synopsis", setup: [] });
  }
  return commands;
}

/**
 * A command in synopsis notation as a runnable line: `[x]` becomes `x`, a value `a|b` (no spaces:
 * alternatives, not a pipe) becomes `a`. Placeholders (`<...>`) are left for the caller to fill.
 */
export function expandNotation(command: string): string {
  let text = command;
  // Innermost brackets first, so that nested optional parts open up too.
  for (let previous = ""; previous !== text; ) {
    previous = text;
    text = text.replace(/\[([^[\]]*)\]/g, "$1");
  }
  return shellWords(text).map(firstAlternative).join(" ");
}

/** `a|b` as `a`; a `|` inside `<...>` (`<EUR,DKK|any>`) or in quotes belongs to the value. */
function firstAlternative(word: string): string {
  // A quoted word, and a pipe between two commands (`merchant list --json | jq length`), stay as they are.
  if (/^['"]/.test(word) || /^\|+$/.test(word)) return word;
  let depth = 0;
  for (let index = 0; index < word.length; index++) {
    const char = word[index];
    if (char === "<") depth++;
    else if (char === ">") depth--;
    else if (char === "|" && depth === 0) return word.slice(0, index);
  }
  return word;
}

/** The command without its comments (`# ...` after a blank, outside quotes): what a placeholder check reads. */
export function withoutComments(command: string): string {
  return command
    .split("\n")
    .map((line) => {
      let quote: string | undefined;
      for (let index = 0; index < line.length; index++) {
        const char = line[index]!;
        if (quote) {
          if (char === quote) quote = undefined;
        } else if (char === "'" || char === '"') quote = char;
        else if (char === "#" && (index === 0 || /\s/.test(line[index - 1]!))) return line.slice(0, index);
      }
      return line;
    })
    .join("\n");
}
