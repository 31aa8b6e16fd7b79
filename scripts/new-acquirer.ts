// npm run new:acquirer -- <name> [--label "<Label>"]: a new acquirer module and its sandbox, copied
// from the templates (lib/acquirers/_template/, lib/sandboxes/acquirers/_template/) with `xacquirer`
// replaced by <name>, and registered where acquirers are registered: its line in
// lib/acquirers/names.ts, lib/acquirers/index.ts and lib/sandboxes/acquirers/index.ts, and its value
// in the database enum (prisma/schema/merchant.prisma). The result type-checks and passes the
// conformance kit; what is left (the acquirer's protocol from its reference, the migration, the
// docs) is printed, and lib/acquirers/README.md says it step by step.
import { cpSync, existsSync, readdirSync, readFileSync, renameSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";

const ROOT = path.resolve(import.meta.dirname, "..");
const USAGE = 'usage: npm run new:acquirer -- <name> [--label "<Label>"]   (name: 3 to 30 lower-case letters and digits, starting with a letter)';

function fail(message: string): never {
  console.error(`new:acquirer: ${message}`);
  process.exit(2);
}

function parseArguments(argv: string[]): { name: string; label: string } {
  const labelAt = argv.indexOf("--label");
  const label = labelAt >= 0 ? argv[labelAt + 1] : undefined;
  const rest = labelAt < 0 ? argv : argv.filter((_, index) => index !== labelAt && index !== labelAt + 1);
  if (rest.length !== 1 || (labelAt >= 0 && !label)) fail(USAGE);
  const name = rest[0]!;
  if (!/^[a-z][a-z0-9]{2,29}$/.test(name)) fail(`"${name}" is not a name for an acquirer\n${USAGE}`);
  if (["xacquirer", "template", "plumbing", "index", "names", "contract"].includes(name)) fail(`"${name}" is reserved`);
  return { name, label: label ?? name[0]!.toUpperCase() + name.slice(1) };
}

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((entry) => {
    const full = path.join(dir, entry);
    return statSync(full).isDirectory() ? files(full) : [full];
  });
}

/** The template's token in its three spellings, replaced by the name in the same spelling. */
function rename(text: string, name: string): string {
  const capital = name[0]!.toUpperCase() + name.slice(1);
  return text
    .replaceAll('"xacquirer" as AcquirerName', `"${name}"`)
    .replaceAll("XACQUIRER", name.toUpperCase())
    .replaceAll("Xacquirer", capital)
    .replaceAll("xacquirer", name);
}

/** Copies a template folder to `to`, renaming inside the files; the template's own README stays behind. */
function copyTemplate(from: string, to: string, name: string): string[] {
  cpSync(from, to, { recursive: true, filter: (source) => path.relative(from, source) !== "README.md" });
  const written = files(to);
  for (const file of written) {
    writeFileSync(file, rename(readFileSync(file, "utf8"), name));
    const renamed = path.join(path.dirname(file), rename(path.basename(file), name));
    if (renamed !== file) renameSync(file, renamed);
  }
  return files(to);
}

/** Replaces `pattern`'s one match in `file` by `replace(match)`; fails when the file is not as expected. */
function edit(file: string, pattern: RegExp, replace: (match: RegExpExecArray) => string): void {
  const text = readFileSync(path.join(ROOT, file), "utf8");
  const match = pattern.exec(text);
  if (!match) fail(`${file} is not as this script expects (${pattern}): register the acquirer there by hand`);
  writeFileSync(path.join(ROOT, file), text.slice(0, match.index) + replace(match) + text.slice(match.index + match[0].length));
}

function main(): void {
  const { name, label } = parseArguments(process.argv.slice(2));
  const namesFile = readFileSync(path.join(ROOT, "lib/acquirers/names.ts"), "utf8");
  const labels = /const LABELS = \{\n([\s\S]*?)\} as const;/.exec(namesFile);
  if (!labels) fail("lib/acquirers/names.ts is not as this script expects");
  const known = [...labels[1]!.matchAll(/^\s+(\w+):/gm)].map((match) => match[1]!);
  if (known.includes(name)) fail(`${name} is an acquirer already`);
  for (const folder of [`lib/acquirers/${name}`, `lib/sandboxes/acquirers/${name}`])
    if (existsSync(path.join(ROOT, folder))) fail(`${folder} exists already`);

  const written = [
    ...copyTemplate(path.join(ROOT, "lib/acquirers/_template"), path.join(ROOT, "lib/acquirers", name), name),
    ...copyTemplate(path.join(ROOT, "lib/sandboxes/acquirers/_template"), path.join(ROOT, "lib/sandboxes/acquirers", name), name),
  ];
  // Last in the routing of a new merchant until someone says otherwise.
  edit(`lib/acquirers/${name}/index.ts`, /routingRank: \d+,/, () => `routingRank: ${known.length + 1},`);
  edit("lib/acquirers/names.ts", /(const LABELS = \{\n[\s\S]*?)(\} as const;)/, (match) => `${match[1]}  ${name}: ${JSON.stringify(label)},\n${match[2]}`);
  edit("lib/acquirers/index.ts", /((?:import \{ \w+ \} from "\.\/\w+";\n)+)/, (match) => `${match[1]}import { ${name} } from "./${name}";\n`);
  edit("lib/acquirers/index.ts", /export const ACQUIRERS = \{ ([^}]*) \}/, (match) => `export const ACQUIRERS = { ${match[1]}, ${name} }`);
  edit(
    "lib/sandboxes/acquirers/index.ts",
    /((?:import \{ \w+ \} from "\.\/\w+\/sandbox";\n)+)/,
    (match) => `${match[1]}import { ${name}Sandbox } from "./${name}/sandbox";\n`,
  );
  edit("lib/sandboxes/acquirers/index.ts", /export const SANDBOXES = \{ ([^}]*) \}/, (match) => `export const SANDBOXES = { ${match[1]}, ${name}: ${name}Sandbox }`);
  edit("prisma/schema/merchant.prisma", /(enum Processor \{\n[\s\S]*?)(\})/, (match) => `${match[1]}  ${name}\n${match[2]}`);

  const rel = (file: string) => path.relative(ROOT, file);
  console.log(
    [
      `Added the acquirer ${name} ("${label}"):`,
      ...written.map((file) => `  new     ${rel(file)}`),
      "  edited  lib/acquirers/names.ts, lib/acquirers/index.ts, lib/sandboxes/acquirers/index.ts, prisma/schema/merchant.prisma",
      "",
      "Next (lib/acquirers/README.md, step by step):",
      `  npm run db:generate && npm run db:migration -- acquirer_${name}   the enum value, as a migration`,
      `  write lib/acquirers/${name}/ and lib/sandboxes/acquirers/${name}/ from the acquirer's reference (every REPLACE)`,
      `  record its answers in lib/acquirers/${name}/fixtures/ and point fixtures/conformance.json at them`,
      `  docs/acquirers/references/${name}.md and its section in docs/acquirers.md; a decision in docs/decisions/`,
      `  npx vitest run --project unit tests/unit/acquirers   the conformance kit and the names`,
    ].join("\n"),
  );
}

main();
