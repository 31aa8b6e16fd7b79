// The hosted-field scripts of a production server come from the build (scripts/build/browser-bundles.mjs,
// run by every `next build`), not from a bundler at run time; they are the very code the sources give.
import { readFileSync } from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { resetConfig } from "@/lib/env";
import { BROWSER_BUNDLES, browserBundle, type BundleName } from "@/lib/cardholder/browser-bundles";
// @ts-expect-error: a plain .mjs build script without type declarations
import { buildBrowserBundles } from "../../../scripts/build/browser-bundles.mjs";

const saved = { NODE_ENV: process.env.NODE_ENV, CPS_LOCAL: process.env.CPS_LOCAL };
const cache = globalThis as unknown as { __cpsBundles?: Map<BundleName, unknown> };

function runAs(nodeEnv: string): void {
  (process.env as Record<string, string | undefined>).NODE_ENV = nodeEnv;
  process.env.CPS_LOCAL = "1"; // production code paths, local secrets
  resetConfig();
  cache.__cpsBundles = undefined;
}

afterEach(() => {
  (process.env as Record<string, string | undefined>).NODE_ENV = saved.NODE_ENV;
  process.env.CPS_LOCAL = saved.CPS_LOCAL;
  resetConfig();
  cache.__cpsBundles = undefined;
});

describe("hosted-field bundles built at build time", () => {
  it("a production server reads the content-hashed files the build wrote, identical to what the sources bundle to", async () => {
    const manifest = (await buildBrowserBundles(process.cwd())) as Record<string, { file: string; sha256: string }>;
    expect(Object.keys(manifest).sort()).toEqual(Object.keys(BROWSER_BUNDLES).sort());

    runAs("production");
    const built = await browserBundle("dynamic");
    expect(built.publicPath).toBe(`/_cps/${manifest.dynamic!.file}`);
    expect(manifest.dynamic!.file).toMatch(/^dynamic\.[0-9a-f]{16}\.js$/);
    expect(built.code).toBe(readFileSync(path.join("public/_cps", manifest.dynamic!.file), "utf8"));
    expect(built.sha256).toBe(manifest.dynamic!.sha256);

    runAs("development"); // bundled from the sources with esbuild, as next dev does
    const fromSources = await browserBundle("dynamic");
    expect(fromSources.publicPath).toBeUndefined();
    expect(fromSources.code).toBe(built.code);
  });
});
