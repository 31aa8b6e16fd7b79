// The docs are a map a newcomer can walk: every file under docs/ is linked from the README or from
// a docs index (a README.md inside docs/, e.g. docs/decisions/README.md, itself linked from the
// README), and every relative link in the README and in docs/ names a file that exists.
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = path.resolve(__dirname, "../../..");

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((entry) => {
    const full = path.join(dir, entry);
    return statSync(full).isDirectory() ? files(full) : [full];
  });
}

/** Relative link targets of a markdown file, resolved to repository-relative paths (anchors and queries dropped). */
function links(file: string): { text: string; target: string }[] {
  const source = readFileSync(file, "utf8").replace(/```[\s\S]*?```/g, ""); // links inside code blocks are examples
  const found: { text: string; target: string }[] = [];
  for (const match of source.matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)) {
    const href = match[1]!;
    if (/^[a-z][a-z0-9+.-]*:/i.test(href) || href.startsWith("#")) continue; // absolute URL or same-page anchor
    const clean = decodeURIComponent(href.replace(/[#?].*$/, ""));
    const resolved = path.relative(ROOT, path.resolve(path.dirname(file), clean)).split(path.sep).join("/");
    found.push({ text: href, target: resolved });
  }
  return found;
}

const rel = (file: string) => path.relative(ROOT, file).split(path.sep).join("/");
const markdown = [path.join(ROOT, "README.md"), ...files(path.join(ROOT, "docs")).filter((f) => f.endsWith(".md"))];

describe("docs map", () => {
  it("every relative link in README.md and docs/ resolves to a file or folder that exists", () => {
    const broken = markdown.flatMap((file) =>
      links(file)
        .filter((link) => !existsSync(path.join(ROOT, link.target)))
        .map((link) => `${rel(file)}: (${link.text}) → ${link.target} does not exist`),
    );
    expect(broken, broken.join("\n")).toEqual([]);
  });

  it("every file under docs/ is linked from README.md or from a guide or index the README links", () => {
    const fromReadme = new Set(links(path.join(ROOT, "README.md")).map((link) => link.target));
    // The guides the README links are the docs' index, with the READMEs of folders (docs/decisions/).
    const indexes = markdown.filter((f) => f !== path.join(ROOT, "README.md") && (fromReadme.has(rel(f)) || fromReadme.has(path.dirname(rel(f)))));
    const linked = new Set([...fromReadme, ...indexes.flatMap((index) => links(index).map((link) => link.target))]);
    // A folder linked as such (docs/decisions/) counts as its README.md.
    for (const target of [...linked]) if (existsSync(path.join(ROOT, target)) && statSync(path.join(ROOT, target)).isDirectory()) linked.add(`${target}/README.md`);
    const orphans = files(path.join(ROOT, "docs"))
      .map(rel)
      .filter((doc) => !linked.has(doc) && !indexes.map(rel).includes(doc));
    expect(orphans, `not linked from README.md or a docs index:\n${orphans.join("\n")}`).toEqual([]);
  });

  it("reads links as the README writes them: a guide, a folder index, an anchor dropped, code blocks skipped", () => {
    const targets = links(path.join(ROOT, "README.md")).map((link) => link.target);
    expect(targets).toContain("docs/integration.md");
    expect(targets).toContain("docs/decisions/README.md");
    expect(targets.every((target) => !target.includes("#"))).toBe(true);
  });
});
