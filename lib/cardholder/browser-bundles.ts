// The hosted-field browser scripts (dynamic.js and the frame scripts). A production server reads
// them from the build output (dist/browser-bundles.json and public/_cps/, written by scripts/build/browser-bundles.mjs
// during `next build`) and runs no bundler. Elsewhere (next dev, tests) they are bundled from the
// TypeScript sources with esbuild on first use, so an edit shows without a build; esbuild is then
// loaded through a plain Node require so that the Next.js bundler leaves its native binary alone.
import { createHash } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { config } from "../env";
import entries from "./browser-bundle-entries.json";

export const BROWSER_BUNDLES = entries;
export type BundleName = keyof typeof BROWSER_BUNDLES;
/**
 * The frame pages share one bundle (frames); these names of the separate bundles they had before
 * still resolve to it (the back office's styling preview asks for "field").
 */
const FRAME_BUNDLE_ALIASES = { field: "frames", controller: "frames", challenge: "frames" } as const;

/** Where the build writes the bundles; Next serves this folder at /_cps/ (immutable, next.config.mjs). */
export const BUILT_BUNDLE_DIR = "public/_cps";
const BUILT_MANIFEST = "dist/browser-bundles.json";

export interface BrowserBundle {
  code: string;
  /** sha256 of the code, base64: for CSP hashes and ETags. */
  sha256: string;
  /** The content-hashed public path of the built file (/_cps/<name>.<hash>.js); absent when bundled at run time. */
  publicPath?: string;
}

interface EsbuildApi {
  build(options: Record<string, unknown>): Promise<{ outputFiles: { text: string }[] }>;
}

type Manifest = Record<string, { file: string; sha256: string }>;

const cache = globalThis as unknown as { __cpsBundles?: Map<BundleName, Promise<BrowserBundle>> };

function projectRoot(): string {
  return process.cwd();
}

/** Whether the bundles must come from the build (a production server), rather than from esbuild. */
export function usesBuiltBundles(): boolean {
  return config().NODE_ENV === "production";
}

function readBuilt(name: BundleName): BrowserBundle {
  const root = projectRoot();
  const dir = path.join(/*turbopackIgnore: true*/ root, BUILT_BUNDLE_DIR);
  const manifestPath = path.join(/*turbopackIgnore: true*/ root, BUILT_MANIFEST);
  if (!existsSync(manifestPath)) throw new Error(`${BUILT_MANIFEST} is missing: run npm run build`);
  const entry = (JSON.parse(readFileSync(manifestPath, "utf8")) as Manifest)[name];
  if (!entry) throw new Error(`${BUILT_MANIFEST} has no ${name} bundle: run npm run build`);
  const code = readFileSync(path.join(dir, entry.file), "utf8");
  return { code, sha256: entry.sha256, publicPath: `/_cps/${entry.file}` };
}

async function bundleFromSources(name: BundleName): Promise<BrowserBundle> {
  const root = projectRoot();
  const requireFromRoot = createRequire(path.join(root, "package.json"));
  const esbuild = requireFromRoot("esbuild") as EsbuildApi;
  const result = await esbuild.build({
    absWorkingDir: root,
    // Read from the checkout at run time: the build must not trace (and copy) the project for it.
    entryPoints: [path.join(/*turbopackIgnore: true*/ root, BROWSER_BUNDLES[name])],
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
  });
  const code = result.outputFiles[0]?.text ?? "";
  return { code, sha256: createHash("sha256").update(code).digest("base64") };
}

/** The minified bundle, loaded once per process (a failure is retried on the next call). */
export function browserBundle(requested: BundleName | keyof typeof FRAME_BUNDLE_ALIASES): Promise<BrowserBundle> {
  const name: BundleName =
    requested in FRAME_BUNDLE_ALIASES ? FRAME_BUNDLE_ALIASES[requested as keyof typeof FRAME_BUNDLE_ALIASES] : (requested as BundleName);
  cache.__cpsBundles ??= new Map();
  let pending = cache.__cpsBundles.get(name);
  if (!pending) {
    pending = usesBuiltBundles() ? Promise.resolve().then(() => readBuilt(name)) : bundleFromSources(name);
    cache.__cpsBundles.set(name, pending);
    pending.catch(() => cache.__cpsBundles?.delete(name));
  }
  return pending;
}
