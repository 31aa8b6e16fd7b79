// Acquirer names live in the acquirers' own places: product code (app/, components/, lib/ but the
// generated Prisma client) names an acquirer only inside lib/acquirers/<name>/ (its module),
// lib/sandboxes/acquirers/<name>/ (its sandbox), lib/acquirers/names.ts (the list) and the two
// registration points (lib/acquirers/index.ts, lib/sandboxes/acquirers/index.ts). Everything else
// derives what it needs from those, so a fourth acquirer touches no other file.
// What counts as naming: an identifier, a string or template part, a regular expression or JSX text
// that contains a name, in any case ("finaro", "FINARO_BASE_URL", "createBamboraSandbox"), as the
// TypeScript parser sees the file. Comments do not count: they may say why code is as it is for one
// acquirer ("Finaro names the capture it refunds") without making the code depend on it.
import { readFileSync } from "node:fs";
import path from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { sourceFiles } from "@/tests/helpers/source-files";
import { ACQUIRER_NAMES } from "@/lib/acquirers/names";

const ROOT = path.resolve(import.meta.dirname, "../../..");
const SOURCE = /\.(ts|tsx|mts|mjs|js)$/;

const sources = (dir: string) => sourceFiles(dir, (name) => SOURCE.test(name) && !name.endsWith(".d.ts"));

/** Where a name may appear (repository-relative). */
export function mayNameAcquirers(file: string): boolean {
  if (["lib/acquirers/names.ts", "lib/acquirers/index.ts", "lib/sandboxes/acquirers/index.ts"].includes(file)) return true;
  return ACQUIRER_NAMES.some((name) => file.startsWith(`lib/acquirers/${name}/`) || file.startsWith(`lib/sandboxes/acquirers/${name}/`));
}

const NAMED = new RegExp(ACQUIRER_NAMES.join("|"), "i");

/** Each identifier, string, regular expression or JSX text of `source` that names an acquirer, with its line. */
export function acquirerMentions(fileName: string, source: string): { line: number; text: string }[] {
  const file = ts.createSourceFile(fileName, source, ts.ScriptTarget.Latest, true, fileName.endsWith("x") ? ts.ScriptKind.TSX : ts.ScriptKind.TS);
  const found: { line: number; text: string }[] = [];
  const visit = (node: ts.Node) => {
    let text: string | undefined;
    if (ts.isIdentifier(node) || ts.isPrivateIdentifier(node)) text = node.text;
    else if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node) || ts.isRegularExpressionLiteral(node)) text = node.text;
    else if (ts.isTemplateHead(node) || ts.isTemplateMiddle(node) || ts.isTemplateTail(node)) text = node.text;
    else if (ts.isJsxText(node)) text = node.text;
    if (text !== undefined && NAMED.test(text)) found.push({ line: file.getLineAndCharacterOfPosition(node.getStart()).line + 1, text: text.trim().slice(0, 80) });
    ts.forEachChild(node, visit);
  };
  visit(file);
  return found;
}

describe("acquirer names in product code", () => {
  it("appear only in the acquirers' own modules, their sandboxes, the list and the two registration points", { timeout: 60_000 }, () => {
    const outside = ["app", "components", "lib"]
      .flatMap((top) => sources(path.join(ROOT, top)))
      .map((file) => path.relative(ROOT, file).split(path.sep).join("/"))
      .filter((file) => !mayNameAcquirers(file))
      .map((file) => ({ file, source: readFileSync(path.join(ROOT, file), "utf8") }))
      // Only a file whose text holds a name at all needs parsing.
      .filter(({ source }) => NAMED.test(source))
      .flatMap(({ file, source }) => acquirerMentions(file, source).map((mention) => `${file}:${mention.line}: ${mention.text}`));
    expect(outside, `derive these from lib/acquirers (names.ts, index.ts) instead:\n${outside.join("\n")}`).toEqual([]);
  });

  it("counts identifiers, strings, templates, regular expressions and JSX text, not comments", () => {
    const [name] = ACQUIRER_NAMES;
    const upper = name.toUpperCase();
    const source = [
      `// ${name} says why in a comment: allowed`,
      `/** ${name} in a doc comment */`,
      `const ${name}Client = 1;`,
      `const url = process.env.${upper}_BASE_URL;`,
      `const label = "${name}";`,
      `const text = \`at \${x} ${name}\`;`,
      `const re = /${name}/;`,
      `const el = <p>via ${name}</p>;`,
    ].join("\n");
    expect(acquirerMentions("probe.tsx", source).map((mention) => mention.line)).toEqual([3, 4, 5, 6, 7, 8]);
  });

  it("allows the acquirers' own places and nothing beside them", () => {
    const [name] = ACQUIRER_NAMES;
    expect(mayNameAcquirers(`lib/acquirers/${name}/client.ts`)).toBe(true);
    expect(mayNameAcquirers(`lib/sandboxes/acquirers/${name}/index.ts`)).toBe(true);
    expect(mayNameAcquirers("lib/acquirers/names.ts")).toBe(true);
    expect(mayNameAcquirers("lib/acquirers/registry.ts")).toBe(false);
    expect(mayNameAcquirers("lib/sandboxes/acquirers/faults.ts")).toBe(false);
    expect(mayNameAcquirers(`lib/acquirers/${name}x/client.ts`)).toBe(false);
    expect(mayNameAcquirers("lib/payments/payout.ts")).toBe(false);
  });
});
