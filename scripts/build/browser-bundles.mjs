// Build step: bundles the hosted-field browser scripts (dynamic.js and the frame scripts) with
// esbuild into public/_cps/<name>.<hash>.js plus dist/browser-bundles.json, which the server reads
// at run time (lib/cardholder/browser-bundles.ts), so a production server runs no bundler.
// Called by next.config.mjs in the production-build phase (every `next build`, also the one
// `npm start` runs), and by hand: node scripts/build/browser-bundles.mjs
// Content-hashed names are never overwritten with other content; older files stay, so pages that a
// previous release served during a rolling deploy still find their script.
import { createHash } from "node:crypto";
import { mkdirSync, readFileSync, renameSync, writeFileSync, existsSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

export const BUNDLE_DIR = "public/_cps";
/** Not under public/: the manifest keeps its name from build to build, so it must not be served as immutable. */
export const MANIFEST = "dist/browser-bundles.json";

/** The options every bundle is built with (also used by the development fallback at run time). */
export function bundleOptions(root, name, entry) {
  return {
    absWorkingDir: root,
    entryPoints: [path.join(root, entry)],
    bundle: true,
    write: false,
    minify: true,
    format: "iife",
    // dynamic.js exposes boot(); the route calls it with the session's configuration.
    ...(name === "dynamic" ? { globalName: "CPSDynamic" } : {}),
    target: ["chrome100", "firefox100", "safari15"],
    platform: "browser",
    legalComments: "none",
    tsconfig: path.join(root, "tsconfig.json"),
    logLevel: "silent",
  };
}

export async function buildBrowserBundles(root = process.cwd()) {
  const { build } = await import("esbuild");
  const entries = JSON.parse(readFileSync(path.join(root, "lib/cardholder/browser-bundle-entries.json"), "utf8"));
  const outDir = path.join(root, BUNDLE_DIR);
  mkdirSync(outDir, { recursive: true });
  const manifest = {};
  for (const [name, entry] of Object.entries(entries)) {
    const result = await build(bundleOptions(root, name, entry));
    const code = result.outputFiles[0]?.text ?? "";
    const digest = createHash("sha256").update(code);
    const sha256 = digest.copy().digest("base64");
    const file = `${name}.${digest.digest("hex").slice(0, 16)}.js`;
    const target = path.join(outDir, file);
    if (!existsSync(target)) writeAtomically(target, code);
    manifest[name] = { file, sha256 };
  }
  mkdirSync(path.dirname(path.join(root, MANIFEST)), { recursive: true });
  writeAtomically(path.join(root, MANIFEST), `${JSON.stringify(manifest, null, 2)}\n`);
  return manifest;
}

/** Write then rename: a server or a parallel build never reads half a file. */
function writeAtomically(target, content) {
  const temporary = `${target}.${process.pid}.tmp`;
  writeFileSync(temporary, content);
  renameSync(temporary, target);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const manifest = await buildBrowserBundles();
  for (const [name, { file }] of Object.entries(manifest)) console.log(`${BUNDLE_DIR}/${file}  (${name})`);
}
