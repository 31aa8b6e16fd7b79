// The README's merchant page, its checkout.js and its Content-Security-Policy, copied from docs/integration.md
// and served together from another loopback origin (127.0.0.1 on a port of its own; the fields are
// on localhost): the hosted fields must initialize (jsinitsuccess) with no policy violation.
// Substitutions, and only these: {cit} → the service's origin, DFURLSCRIPTINCLUDE → the session's
// dfurlscriptinclude, and each callback body `(e) => {}` → one that records the event (so the test
// can see it); a tiny recorder file, loaded first from the same origin, keeps the events and every
// `securitypolicyviolation`. The window is never paid, so its notificationurl (required: the demo
// merchant has no configured address) names a port of this helper's block where nothing listens.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { readFileSync } from "node:fs";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { E2E, demoCredentials } from "../helpers/e2e/demo-service";

const FIELDS_ORIGIN = `http://localhost:${E2E.port}`;

function cardholderSection(readme: string): string {
  return readme.slice(readme.indexOf("<!-- section:cardholder-flow -->"), readme.indexOf("<!-- /section:cardholder-flow -->"));
}

function blockAfter(section: string, marker: string, language: string): string {
  const start = section.indexOf(marker);
  expect(start, `README cardholder section has "${marker}"`).toBeGreaterThan(-1);
  const block = new RegExp("```" + language + "\\n([\\s\\S]*?)```").exec(section.slice(start));
  expect(block, `a \`\`\`${language} block after "${marker}"`).not.toBeNull();
  return block![1]!;
}

const RECORDER = `
window.cpsEvents = [];
window.cspViolations = [];
document.addEventListener("securitypolicyviolation", (e) => {
  window.cspViolations.push(e.violatedDirective + " " + e.blockedURI);
});
`;

test("the README's page, checkout.js and Content-Security-Policy work together: fields initialize, nothing is blocked", async ({ page }) => {
  const section = cardholderSection(readFileSync(path.resolve("docs/integration.md"), "utf8"));
  const html = blockAfter(section, "### Integration", "html");
  const checkout = blockAfter(section, "### Integration", "js");
  const cspLine = blockAfter(section, "### Content-Security-Policy for your page", "").trim();
  expect(cspLine).toMatch(/^Content-Security-Policy: /);
  const csp = cspLine.replace(/^Content-Security-Policy: /, "").replaceAll("{cit}", FIELDS_ORIGIN);
  expect(html).toContain('<script src="/checkout.js"></script>');
  expect(html, "the README page has no inline script").not.toMatch(/<script>/);

  const demo = demoCredentials();
  const response = await fetch(`${FIELDS_ORIGIN}/api/initdynamic`, {
    method: "POST",
    headers: { authorization: `Basic ${demo.apiKey}`, "content-type": "application/json" },
    body: JSON.stringify({ merchantid: demo.merchantId, merchantpaymentid: `csp${Date.now().toString(36)}`, amount: 12500, currency: "DKK", reference: "CSP", notificationurl: "http://127.0.0.1:3509/notify" }),
  });
  const session = (await response.json()) as { dfurlscriptinclude: string };
  expect(response.status, JSON.stringify(session)).toBe(200);

  const page_ = `<!doctype html><html><head><meta charset="utf-8"><script src="/recorder.js"></script></head><body>\n${html.replace("DFURLSCRIPTINCLUDE", session.dfurlscriptinclude)}\n</body></html>`;
  const checkoutJs = checkout.replace(/(js\w+):(\s*)\(e\) => \{\}/g, (_all, name: string, space: string) => `${name}:${space}(e) => window.cpsEvents.push({ name: "${name}", payload: e })`);
  expect(checkoutJs).toContain('name: "jsinitsuccess"');
  const server = http.createServer((req, res) => {
    if (req.url === "/recorder.js") return void res.writeHead(200, { "content-type": "text/javascript" }).end(RECORDER);
    if (req.url === "/checkout.js") return void res.writeHead(200, { "content-type": "text/javascript" }).end(checkoutJs);
    res.writeHead(200, { "content-type": "text/html; charset=utf-8", "content-security-policy": csp }).end(page_);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const consoleErrors: string[] = [];
  page.on("console", (message) => {
    if (message.type() === "error" || /Content Security Policy/i.test(message.text())) consoleErrors.push(message.text());
  });
  try {
    await page.goto(`${origin}/`);
    await page.waitForFunction(() => (window as unknown as { cpsEvents: { name: string }[] }).cpsEvents.some((event) => event.name === "jsinitsuccess"), null, {
      timeout: 30_000,
    });
    // The four fields are our frames, loaded under the page's frame-src.
    for (const id of ["pan", "expmonth", "expyear", "securitycode"]) {
      await expect(page.locator(`#${id} iframe`)).toHaveAttribute("src", new RegExp(`^${FIELDS_ORIGIN}/`));
    }
    const events = await page.evaluate(() => (window as unknown as { cpsEvents: { name: string }[] }).cpsEvents.map((event) => event.name));
    expect(events).not.toContain("jsfieldloaderror");
    expect(await page.evaluate(() => (window as unknown as { cspViolations: string[] }).cspViolations)).toEqual([]);
    expect(consoleErrors.filter((text) => /Content Security Policy|Refused to/i.test(text))).toEqual([]);
  } finally {
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
});
