// The merchant demo page: what a merchant builds, served from another origin than the fields
// (127.0.0.1 when the service is localhost, and the other way round). Local mode only: in
// production it answers 404 (security issue 10, item 4). Its server side initializes the session
// over the real merchant API with the demo merchant's key from DATA_DIR/demo.json; its page
// includes dynamic.js, provides the elements and logs every callback. Query parameters set a few
// initdynamic fields so flows can be tried, but never `notificationurl` or `paymentid`: the page
// needs no authentication, so whoever can make a browser load it must not be able to point the
// service at an address of their choosing or act on an existing payment. A test that needs its
// own notification address initializes the session itself (with the key from the 0600 file) and
// opens the page with `sessionid`, as a merchant's server would.
import { readFileSync } from "node:fs";
import path from "node:path";
import { z } from "zod";
import { config } from "../env";
import { escapeHtml, newNonce, scriptJson } from "../cardholder/frame-page";
import { hostedFieldUrls } from "../payments/init-session";
import { db } from "../db";

const demoCredentialsSchema = z.object({ merchantId: z.string(), apiKey: z.string() });

const PASSED_THROUGH = [
  "amount",
  "currency",
  "reference",
  "set3ds",
  "timeout",
  "instantcapture",
  "merchantpaymentid",
  "newmerchantpaymentid",
  "hostedid",
  "merchantdata",
  "textonstatement",
  "rule",
] as const;

/** The other loopback name for the same server: a different origin for the browser. */
export function alternateOrigin(origin: string): string | undefined {
  const url = new URL(origin);
  if (url.hostname === "localhost") url.hostname = "127.0.0.1";
  else if (url.hostname === "127.0.0.1") url.hostname = "localhost";
  else return undefined;
  return url.origin;
}

function readDemoCredentials() {
  const file = path.resolve(config().DATA_DIR, "demo.json");
  return demoCredentialsSchema.parse(JSON.parse(readFileSync(file, "utf8")));
}

function initBody(query: URLSearchParams, merchantId: string): Record<string, unknown> {
  const body: Record<string, unknown> = { merchantid: merchantId, amount: 12500, currency: "DKK", reference: "demo-order" };
  for (const name of PASSED_THROUGH) {
    const value = query.get(name);
    if (value === null) continue;
    body[name] = /^(amount|timeout|instantcapture|rule)$/.test(name) && /^\d+$/.test(value) ? Number(value) : value;
  }
  const processors = query.get("processor");
  if (processors) body.processor = processors.split(",").filter(Boolean);
  return body;
}

function htmlResponse(html: string, nonce: string, citOrigin: string, status = 200): Response {
  return new Response(html, {
    status,
    headers: {
      "content-type": "text/html; charset=utf-8",
      "cache-control": "no-store",
      // The policy the README asks merchants to use: our script, our frames, nothing else of ours.
      "content-security-policy": `default-src 'self'; script-src 'nonce-${nonce}' ${citOrigin}; frame-src ${citOrigin}; connect-src 'self'; style-src 'nonce-${nonce}'; img-src 'self' data:`,
    },
  });
}

const SESSION_ID = /^[a-f0-9]{32}$/;

function notFound(): Response {
  return new Response("<!doctype html><title>Not found</title><p>Not found.</p>", {
    status: 404,
    headers: { "content-type": "text/html; charset=utf-8", "cache-control": "no-store" },
  });
}

/**
 * A session the caller initialized itself (as a merchant's server does): only its id travels. The
 * order shown is the session's own (its merchantpaymentid, reference, amount and currency), read as
 * the merchant's shop would know it, and only for a session of the demo merchant; the query's
 * amount, currency and reference are the fallback for any other id.
 */
async function existingSession(query: URLSearchParams, sessionId: string): Promise<Record<string, unknown>> {
  const demo = readDemoCredentials();
  const known = await db().paymentSession.findFirst({
    where: { id: sessionId, merchantId: demo.merchantId },
    select: { merchantPaymentId: true, reference: true, amount: true, currency: true },
  });
  return {
    sessionid: sessionId,
    dfurlscriptinclude: hostedFieldUrls(sessionId).dfurlscriptinclude,
    amount: known ? Number(known.amount) : /^\d{1,12}$/.test(query.get("amount") ?? "") ? Number(query.get("amount")) : 12500,
    currency: known?.currency ?? query.get("currency") ?? "DKK",
    reference: known?.reference ?? query.get("reference") ?? null,
    merchantpaymentid: known?.merchantPaymentId ?? null,
  };
}

export async function renderDemoShop(request: Request): Promise<Response> {
  if (config().isProduction) return notFound();
  const requestUrl = new URL(request.url);
  const host = request.headers.get("host") ?? requestUrl.host;
  const pageOrigin = `${requestUrl.protocol}//${host}`;
  const cit = config().apiBaseUrls.cit;
  const citOrigin = new URL(cit).origin;
  const nonce = newNonce();
  const shopOrigin = alternateOrigin(citOrigin);
  if (pageOrigin === citOrigin) {
    const target = shopOrigin ? `${shopOrigin}/demo-shop${requestUrl.search}` : undefined;
    return htmlResponse(
      `<!doctype html><meta charset="utf-8"><title>Demo shop</title><p>The demo shop must run on another origin than the card fields (${escapeHtml(citOrigin)}).` +
        (target ? ` Open <a href="${escapeHtml(target)}">${escapeHtml(target)}</a>.` : " Reach this server by another host name.") +
        `</p>`,
      nonce,
      citOrigin,
      409,
    );
  }
  // Only the one shop origin (the other loopback name of the fields' origin) is served: any other
  // Host, forged or not, finds nothing here rather than a page that spends the demo key.
  if (!shopOrigin || pageOrigin !== shopOrigin) return notFound();
  const query = requestUrl.searchParams;
  const sessionId = query.get("sessionid");
  let session: Record<string, unknown>;
  if (sessionId !== null) {
    if (!SESSION_ID.test(sessionId)) return notFound();
    session = await existingSession(query, sessionId);
  } else {
    const demo = readDemoCredentials();
    const init = await fetch(`${cit}/api/initdynamic`, {
      method: "POST",
      headers: { authorization: `Basic ${demo.apiKey}`, "content-type": "application/json" },
      body: JSON.stringify(initBody(query, demo.merchantId)),
    });
    session = (await init.json()) as Record<string, unknown>;
    if (!init.ok) {
      return htmlResponse(
        `<!doctype html><meta charset="utf-8"><title>Demo shop</title><h1>Initialization refused</h1><pre id="init-error">${escapeHtml(JSON.stringify(session, null, 2))}</pre>`,
        nonce,
        citOrigin,
        400,
      );
    }
  }
  const single = query.get("layout") === "single";
  const ids = {
    pan: String(session.idpan ?? "pan"),
    expmonth: String(session.idexpmonth ?? "expmonth"),
    expyear: String(session.idexpyear ?? "expyear"),
    securitycode: String(session.idsecuritycode ?? "securitycode"),
  };
  const fields = single
    ? `<label>Card<div id="ccsingle" class="field"></div></label>`
    : `<label>Card number<div id="${escapeHtml(ids.pan)}" class="field"></div></label>` +
      `<div class="row"><label>Month<div id="${escapeHtml(ids.expmonth)}" class="field"></div></label>` +
      `<label>Year<div id="${escapeHtml(ids.expyear)}" class="field"></div></label>` +
      `<label>Security code<div id="${escapeHtml(ids.securitycode)}" class="field"></div></label></div>`;
  const amount = Number(session.amount ?? 0);
  const html =
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>Demo shop checkout</title>` +
    `<style nonce="${nonce}">body{font:15px system-ui,sans-serif;max-width:560px;margin:40px auto;padding:0 16px;color:#111827}` +
    `label{display:block;margin:10px 0 4px;font-weight:500}.row{display:flex;gap:12px}.row label{flex:1}` +
    `.field{margin-top:4px;border-radius:8px}.field.cps-focused{outline:2px solid #c7d2fe}.field.cps-invalid{outline:2px solid #fecaca}` +
    `.field.cps-load-error{outline:2px dashed #f97316}button{margin-top:16px;padding:10px 18px;font:inherit;border:0;border-radius:8px;background:#4f46e5;color:#fff;cursor:pointer}` +
    `#challenge{margin-top:16px}#challenge:empty{display:none}#events{font:12px ui-monospace,monospace;background:#f9fafb;padding:8px 8px 8px 28px;overflow-wrap:anywhere}` +
    `#outcome{font-size:17px;font-weight:600}#outcome.paid{color:#047857}#outcome.failed{color:#b91c1c}</style></head><body>` +
    `<h1>Demo shop</h1><p id="order">Order <b>${escapeHtml(String(session.merchantpaymentid ?? session.reference ?? "without a number"))}</b>${session.merchantpaymentid && session.reference ? ` (${escapeHtml(String(session.reference))})` : ""}: <b id="amount">${(amount / 100).toFixed(2)} ${escapeHtml(String(session.currency ?? ""))}</b></p>` +
    `<form id="checkout">${fields}<button id="pay" type="submit">Pay</button></form>` +
    `<div id="challenge"></div><p id="outcome" role="status"></p><p id="status"></p><h2>Callbacks</h2><ol id="events"></ol>` +
    `<script type="application/json" id="session">${scriptJson({ sessionid: session.sessionid })}</script>` +
    `<script nonce="${nonce}" src="${escapeHtml(String(session.dfurlscriptinclude))}" referrerpolicy="origin"></script>` +
    `<script nonce="${nonce}">${demoPageScript()}</script></body></html>`;
  return htmlResponse(html, nonce, citOrigin);
}

/** The merchant's own code: every callback is logged (window.cpsEvents is what the browser tests read). */
function demoPageScript(): string {
  return `(function(){
var events = window.cpsEvents = [];
var list = document.getElementById("events"), status = document.getElementById("status");
var outcome = document.getElementById("outcome");
var words = { jspaymentsuccess: ["paid", "Paid: thank you for your order."], jspaymentfailed: ["failed", "The payment was declined."], jspaymenttimeout: ["failed", "The payment window timed out."] };
function log(name){ return function(payload){ events.push({ name: name, payload: payload }); var li = document.createElement("li"); li.textContent = name + " " + JSON.stringify(payload); list.appendChild(li); status.textContent = name; if (words[name]) { outcome.className = words[name][0]; outcome.textContent = words[name][1]; } }; }
var names = ["jsinitsuccess","jspaymentstarted","jspaymentsuccess","jspaymentfailed","jspaymenttimeout","jschallengestarted","jschallengecompleted","jschallengeaborted","jsfieldloaderror"];
var callbacks = {};
names.forEach(function(name){ callbacks[name] = log(name); });
if (typeof initDynamic !== "function") { status.textContent = "dynamic.js did not load"; return; }
initDynamic(callbacks);
document.getElementById("checkout").addEventListener("submit", function(event){ event.preventDefault(); goPay(); });
})();`;
}
