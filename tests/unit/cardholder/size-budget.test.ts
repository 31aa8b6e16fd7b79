// The size budget of the hosted fields (issue 14): dynamic.js, and each field page together with
// the script it loads, under 8 KB gzip as a browser with an empty cache gets them. Sizes are
// deterministic (the same sources bundle to the same bytes), so this is a unit test; the served
// sizes over HTTP and the payment time are in `npm run bench -- hosted-fields`.
import { createHash } from "node:crypto";
import path from "node:path";
import { gzipSync } from "node:zlib";
import { build } from "esbuild";
import { describe, expect, it } from "vitest";
import { BROWSER_BUNDLES, type BundleName } from "@/lib/cardholder/browser-bundles";
import { controllerPageHtml, fieldPageHtml, newNonce } from "@/lib/cardholder/frame-page";
import { FIELD_KINDS } from "@/lib/cardholder/protocol";
import { dynamicScriptBody } from "@/lib/cardholder/serve-dynamic-script";
// @ts-expect-error: a plain .mjs build script without type declarations
import { bundleOptions } from "../../../scripts/build/browser-bundles.mjs";

const BUDGET = 8 * 1024;
const SESSION_ID = "0123456789abcdef0123456789abcdef";
const ORIGIN = "https://shop.example";

async function bundle(name: BundleName): Promise<{ code: string; sha256: string; publicPath: string }> {
  const result = await build(bundleOptions(process.cwd(), name, BROWSER_BUNDLES[name]));
  const code: string = result.outputFiles[0].text;
  const digest = createHash("sha256").update(code);
  return { code, sha256: digest.copy().digest("base64"), publicPath: `/_cps/${name}.${digest.digest("hex").slice(0, 16)}.js` };
}

/** Next compresses with zlib's default level. */
const gzip = (text: string) => gzipSync(Buffer.from(text)).length;

describe("hosted-field size budget", () => {
  it("the bundles hold no zod (its core alone is most of the budget)", async () => {
    for (const name of Object.keys(BROWSER_BUNDLES) as BundleName[]) {
      const result = await build({ ...bundleOptions(process.cwd(), name, BROWSER_BUNDLES[name]), metafile: true });
      const inputs = Object.keys(result.metafile!.inputs);
      expect(inputs.filter((input) => input.includes(`node_modules${path.sep}zod`) || input.includes("node_modules/zod"))).toEqual([]);
    }
  });

  it("dynamic.js of a session is under 8 KB gzip", async () => {
    const { code } = await bundle("dynamic");
    const body = dynamicScriptBody(code, {
      sessionid: SESSION_ID,
      origin: "https://pay.example",
      binding: `${Buffer.from(ORIGIN).toString("base64url")}.${"x".repeat(43)}`,
      elements: {
        pan: "pan",
        expmonth: "expmonth",
        expyear: "expyear",
        securitycode: "securitycode",
        ccsingle: "ccsingle",
        challenge: "challenge",
      },
      expiresInMs: 900_000,
      onBehalf: false,
    });
    expect(gzip(body)).toBeLessThan(BUDGET);
  });

  it("each field page and the controller, with the one script they share, are under 8 KB gzip on a first load", async () => {
    const frames = await bundle("frames");
    const script = gzip(frames.code);
    for (const kind of FIELD_KINDS) {
      const html = fieldPageHtml({
        kind,
        config: { sessionid: SESSION_ID, field: kind, parentOrigin: ORIGIN, expiresInMs: 900_000 },
        styling: {},
        script: frames,
        nonce: newNonce(),
      });
      // The page names the script instead of carrying it: the script is cached across frames and sessions.
      expect(html).toContain(`src="${frames.publicPath}" integrity="sha256-${frames.sha256}"`);
      expect(html).not.toContain(frames.code.slice(0, 200));
      expect(gzip(html) + script, kind).toBeLessThan(BUDGET);
    }
    const controller = controllerPageHtml({
      config: { sessionid: SESSION_ID, field: "controller", parentOrigin: ORIGIN },
      script: frames,
      nonce: newNonce(),
    });
    expect(gzip(controller) + script).toBeLessThan(BUDGET);
  });
});
