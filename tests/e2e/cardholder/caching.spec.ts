// What the browser may keep (issue 14): the frames' script is a content-hashed /_cps/ file, served
// immutable for a year and checked by the page with its sha256 (subresource integrity); everything
// per session (dynamic.js with the session's configuration, every frame page with its nonce and
// configuration) is no-store. Against the production build that `npm start` serves.
import { createHash } from "node:crypto";
import { expect, test } from "@playwright/test";
import { demoCredentials } from "../../helpers/e2e/demo-service";
import { FIELDS_ORIGIN, SHOP_ORIGIN } from "../../helpers/e2e/cardholder";

const FRAMES = ["pan", "expmonth", "expyear", "securitycode", "ccsingle", "controller"];

test("per-session documents are no-store; the frames' one shared script is immutable, content-hashed and integrity-checked", async ({
  request,
}) => {
  const demo = demoCredentials();
  const init = await request.post(`${FIELDS_ORIGIN}/api/initdynamic`, {
    headers: { authorization: `Basic ${demo.apiKey}` },
    data: { merchantid: demo.merchantId, amount: 1000, currency: "EUR", reference: "cache-headers" },
  });
  expect(init.status()).toBe(200);
  const { sessionid } = (await init.json()) as { sessionid: string };

  const script = await request.get(`${FIELDS_ORIGIN}/dynamic/${sessionid}/dynamic.js`, { headers: { referer: `${SHOP_ORIGIN}/checkout` } });
  expect(script.status()).toBe(200);
  expect(script.headers()["cache-control"]).toBe("no-store");
  const binding = /"binding":"([^"]+)"/.exec(await script.text())?.[1];
  expect(binding).toBeTruthy();

  const scriptPaths = new Set<string>();
  for (const frame of FRAMES) {
    const page = await request.get(`${FIELDS_ORIGIN}/dynamic/${sessionid}/${frame}?b=${encodeURIComponent(binding!)}`);
    expect(page.status(), frame).toBe(200);
    expect(page.headers()["cache-control"], frame).toBe("no-store");
    const html = await page.text();
    const tag = /<script nonce="[^"]+" src="(\/_cps\/frames\.[0-9a-f]{16}\.js)" integrity="sha256-([^"]+)"><\/script>/.exec(html);
    expect(tag, `${frame} loads the shared script by its content-hashed name`).not.toBeNull();
    const [, path, integrity] = tag!;
    scriptPaths.add(path!);

    const asset = await request.get(`${FIELDS_ORIGIN}${path}`);
    expect(asset.status()).toBe(200);
    expect(asset.headers()["cache-control"]).toBe("public, max-age=31536000, immutable");
    expect(asset.headers()["content-type"]).toMatch(/javascript/);
    const body = await asset.body();
    expect(createHash("sha256").update(body).digest("base64")).toBe(integrity);
    expect(path).toContain(createHash("sha256").update(body).digest("hex").slice(0, 16));
  }
  // One file for every frame: the browser downloads it once per checkout.
  expect(scriptPaths.size).toBe(1);
});
