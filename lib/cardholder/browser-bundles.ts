// Builds the browser scripts (dynamic.js and the frame scripts) from their TypeScript sources with
// esbuild on first use, then serves them from memory. esbuild is loaded at run time through a
// plain Node require so that the Next.js bundler leaves its native binary alone.
import { createHash } from "node:crypto";
import { createRequire } from "node:module";
import path from "node:path";

export const BROWSER_BUNDLES = {
  dynamic: "lib/cardholder/script/dynamic.ts",
  field: "lib/cardholder/frame/field.ts",
  controller: "lib/cardholder/frame/controller.ts",
  challenge: "lib/cardholder/frame/challenge.ts",
} as const;
export type BundleName = keyof typeof BROWSER_BUNDLES;

export interface BrowserBundle {
  code: string;
  /** sha256 of the code, base64: for CSP hashes and ETags. */
  sha256: string;
}

interface EsbuildApi {
  build(options: Record<string, unknown>): Promise<{ outputFiles: { text: string }[] }>;
}

const cache = globalThis as unknown as { __cpsBundles?: Map<BundleName, Promise<BrowserBundle>> };

function projectRoot(): string {
  return process.cwd();
}

async function build(name: BundleName): Promise<BrowserBundle> {
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

/** The minified bundle, built once per process (a failed build is retried on the next call). */
export function browserBundle(name: BundleName): Promise<BrowserBundle> {
  cache.__cpsBundles ??= new Map();
  let pending = cache.__cpsBundles.get(name);
  if (!pending) {
    pending = build(name);
    cache.__cpsBundles.set(name, pending);
    pending.catch(() => cache.__cpsBundles?.delete(name));
  }
  return pending;
}
