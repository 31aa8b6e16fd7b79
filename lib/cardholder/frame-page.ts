// The HTML of our pages inside the merchant page: the card fields, the invisible controller, the
// 3-D Secure challenge page and the refusal page. Plain HTML with one script and one inline
// stylesheet, both allowed by a per-response nonce; the Content-Security-Policy allows nothing else,
// and frame-ancestors names the one merchant origin the session is bound to. The page itself is per
// session (no-store); its script is the build's content-hashed /_cps/ file (cached for a year and
// shared by every frame), checked with its sha256 (subresource integrity), or inline where no build
// made one (next dev, tests).
import { randomBytes } from "node:crypto";
import { DEFAULT_FIELD_COLOURS as DEFAULTS, type HostedStyling } from "../validation/hosted-styling";
import { PROTOCOL_TAG, type FieldKind, type FrameConfig } from "./protocol";

export interface PageResponseOptions {
  html: string;
  nonce: string;
  status?: number;
  /** Origins allowed to embed the page (the bound merchant origin); none: only our own origin. */
  frameAncestors: string[];
  fontOrigins?: string[];
  /** The ACS origin the challenge page (or the 3DS Method page) posts its form into and frames. */
  acsOrigin?: string;
  /** The controller frames our own 3DS Method page, and nothing else. */
  frameSelf?: boolean;
}

/** A frame page's script: the bundle's code, or where the build wrote it, its public path. */
export type PageScript = string | { code: string; sha256: string; publicPath?: string };

function scriptElement(script: PageScript, nonce: string): string {
  if (typeof script !== "string" && script.publicPath)
    return `<script nonce="${nonce}" src="${escapeHtml(script.publicPath)}" integrity="sha256-${script.sha256}"></script>`;
  return `<script nonce="${nonce}">${typeof script === "string" ? script : script.code}</script>`;
}

export function newNonce(): string {
  return randomBytes(16).toString("base64");
}

export function contentSecurityPolicy({
  nonce,
  frameAncestors,
  fontOrigins = [],
  acsOrigin,
  frameSelf = false,
}: Omit<PageResponseOptions, "html" | "status">): string {
  const directives = [
    "default-src 'none'",
    `script-src 'nonce-${nonce}'`,
    `style-src 'nonce-${nonce}'`,
    "connect-src 'self'",
    `img-src 'self' data:`,
    fontOrigins.length > 0 ? `font-src ${fontOrigins.join(" ")}` : "",
    // The ACS frame starts at the ACS and comes back to our notification page at the end.
    acsOrigin ? `frame-src ${acsOrigin} 'self'` : frameSelf ? "frame-src 'self'" : "",
    `form-action ${acsOrigin ?? "'none'"}`,
    `frame-ancestors ${frameAncestors.length > 0 ? frameAncestors.join(" ") : "'self'"}`,
    "base-uri 'none'",
  ];
  return directives.filter(Boolean).join("; ");
}

export function pageResponse(options: PageResponseOptions): Response {
  return new Response(options.html, {
    status: options.status ?? 200,
    headers: {
      "content-type": "text/html; charset=utf-8",
      "content-security-policy": contentSecurityPolicy(options),
      "cache-control": "no-store",
      "x-content-type-options": "nosniff",
      "referrer-policy": "same-origin",
      "cross-origin-resource-policy": "cross-origin",
    },
  });
}

export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
}

/** JSON inside a <script> element: "<" escaped so no value can close the element. */
export function scriptJson(value: unknown): string {
  return JSON.stringify(value).replace(/</g, "\\u003c");
}

/** The end of a page the frame script runs in: its configuration (read by id cps-config) and the script. */
function pageEnd(config: unknown, script: PageScript, nonce: string): string {
  return `<script type="application/json" id="cps-config">${scriptJson(config)}</script>${scriptElement(script, nonce)}</body></html>`;
}

interface InputSpec {
  part: "pan" | "expmonth" | "expyear" | "exp" | "securitycode";
  id: string;
  name: string;
  label: string;
  autocomplete: string;
  placeholder: string;
  maxLength: number;
}

const INPUTS: Record<InputSpec["part"], InputSpec> = {
  pan: {
    part: "pan",
    id: "cardnumber",
    name: "cardnumber",
    label: "Card number",
    autocomplete: "cc-number",
    placeholder: "1234 1234 1234 1234",
    maxLength: 23,
  },
  expmonth: {
    part: "expmonth",
    id: "ccmonth",
    name: "ccmonth",
    label: "Expiry month",
    autocomplete: "cc-exp-month",
    placeholder: "MM",
    maxLength: 2,
  },
  expyear: {
    part: "expyear",
    id: "ccyear",
    name: "ccyear",
    label: "Expiry year",
    autocomplete: "cc-exp-year",
    placeholder: "YY",
    maxLength: 4,
  },
  exp: {
    part: "exp",
    id: "ccexp",
    name: "ccexp",
    label: "Expiry date (MM / YY)",
    autocomplete: "cc-exp",
    placeholder: "MM / YY",
    maxLength: 9,
  },
  securitycode: {
    part: "securitycode",
    id: "cvc",
    name: "cvc",
    label: "Security code",
    autocomplete: "cc-csc",
    placeholder: "CVC",
    maxLength: 4,
  },
};

const FIELD_PARTS: Record<FieldKind, InputSpec["part"][]> = {
  pan: ["pan"],
  expmonth: ["expmonth"],
  expyear: ["expyear"],
  securitycode: ["securitycode"],
  ccsingle: ["pan", "exp", "securitycode"],
};

function stylesheet(styling: HostedStyling, kind: FieldKind): string {
  const s = styling;
  const fonts = (s.fonts ?? [])
    .map(
      (font) =>
        `@font-face{font-family:"${font.family}";src:url("${font.src}");font-weight:${font.weight};font-style:${font.style};font-display:swap}`,
    )
    .join("");
  const color = s.color ?? DEFAULTS.color;
  const error = s.errorColor ?? DEFAULTS.errorColor;
  return [
    fonts,
    "*{box-sizing:border-box;margin:0}",
    `html,body{height:100%;background:${s.backgroundColor ?? DEFAULTS.backgroundColor};overflow:hidden}`,
    `form{display:flex;height:100%;align-items:center;gap:8px}`,
    `input{flex:1 1 auto;min-width:0;width:100%;height:${s.height ?? "100%"};padding:${s.padding ?? "0 10px"};border:1px solid ${s.borderColor ?? DEFAULTS.borderColor};border-radius:${s.borderRadius ?? "6px"};background:transparent;color:${color};font-family:${s.fontFamily ?? "system-ui,-apple-system,Segoe UI,Roboto,sans-serif"};font-size:${s.fontSize ?? "16px"};font-weight:${s.fontWeight ?? 400};letter-spacing:${s.letterSpacing ?? "normal"};outline:none;font-variant-numeric:tabular-nums}`,
    `input::placeholder{color:${s.placeholderColor ?? DEFAULTS.placeholderColor}}`,
    `input:focus{border-color:${s.focusColor ?? DEFAULTS.focusColor};box-shadow:0 0 0 1px ${s.focusColor ?? DEFAULTS.focusColor}}`,
    `input.invalid{color:${error};border-color:${error}}`,
    s.validColor ? `input.valid{color:${s.validColor}}` : "",
    "input:disabled{opacity:.6}",
    kind === "ccsingle" ? "#ccexp{flex:0 0 6.5em}#cvc{flex:0 0 4.5em}" : "",
    ".sr{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap}",
  ].join("");
}

export interface FieldPageOptions {
  kind: FieldKind;
  config: Omit<FrameConfig, "channel">;
  styling: HostedStyling;
  script: PageScript;
  nonce: string;
  /** A test-mode session: the card number field asks for a test card. */
  testMode?: boolean;
}

/** A test session's card number field (unless the merchant styled its placeholder): only test cards are taken. */
const TEST_MODE_PAN = { placeholder: "Test card: 4111 1111 1111 1111", label: "Card number (test mode: test cards only)" };

export function fieldPageHtml({ kind, config, styling, script, nonce, testMode = false }: FieldPageOptions): string {
  const placeholders = styling.placeholders ?? {};
  const inputs = FIELD_PARTS[kind]
    .map((part) => {
      const spec = INPUTS[part];
      const testPan = testMode && part === "pan";
      const placeholder = placeholders[part] ?? (testPan ? TEST_MODE_PAN.placeholder : spec.placeholder);
      return (
        `<label class="sr" for="${spec.id}">${testPan ? TEST_MODE_PAN.label : spec.label}</label>` +
        `<input id="${spec.id}" name="${spec.name}" data-part="${part}" type="text" inputmode="numeric" autocomplete="${spec.autocomplete}" ` +
        `autocorrect="off" spellcheck="false" maxlength="${spec.maxLength}" placeholder="${escapeHtml(placeholder)}" aria-invalid="false">`
      );
    })
    .join("");
  return (
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">` +
    `<meta name="referrer" content="same-origin"><title>${escapeHtml(kind === "ccsingle" ? "Card details" : INPUTS[FIELD_PARTS[kind][0]!].label)}</title>` +
    `<style nonce="${nonce}">${stylesheet(styling, kind)}</style></head><body>` +
    `<form novalidate autocomplete="on" aria-label="Card details">${inputs}</form>` +
    pageEnd(config, script, nonce)
  );
}

export function controllerPageHtml({
  config,
  script,
  nonce,
}: {
  config: Omit<FrameConfig, "channel">;
  script: PageScript;
  nonce: string;
}): string {
  return (
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Payment</title></head><body>` +
    pageEnd(config, script, nonce)
  );
}

export interface ChallengePageOptions {
  config: Omit<FrameConfig, "channel">;
  acsUrl: string;
  /** Form fields posted to the ACS: creq and, where used, threeDSSessionData. */
  formFields: Record<string, string>;
  script: PageScript;
  nonce: string;
}

export function challengePageHtml({ config, acsUrl, formFields, script, nonce }: ChallengePageOptions): string {
  const hidden = Object.entries(formFields)
    .map(([name, value]) => `<input type="hidden" name="${escapeHtml(name)}" value="${escapeHtml(value)}">`)
    .join("");
  return (
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>Card verification</title>` +
    `<style nonce="${nonce}">*{box-sizing:border-box}body{margin:0;font:14px system-ui,sans-serif;color:#1f2937;display:flex;flex-direction:column;height:100vh}` +
    `header{display:flex;justify-content:space-between;align-items:center;padding:8px 12px;border-bottom:1px solid #e5e7eb}` +
    `button{font:inherit;padding:4px 10px;border:1px solid #d1d5db;border-radius:6px;background:#fff;cursor:pointer}iframe{flex:1;border:0;width:100%;min-height:380px}</style></head><body>` +
    `<header><span>Confirm the payment with your bank</span><button id="cancel" type="button">Cancel</button></header>` +
    `<iframe name="acs" title="Your bank's verification page"></iframe>` +
    `<form id="acs-form" method="post" action="${escapeHtml(acsUrl)}" target="acs">${hidden}</form>` +
    pageEnd(config, script, nonce)
  );
}

/** The page the ACS posts the CRes to, inside the challenge page: tells it the outcome our server determined. */
export function challengeNotifyPageHtml({
  paymentid,
  outcome,
  nonce,
}: {
  paymentid: string;
  outcome: "completed" | "failed" | "aborted";
  nonce: string;
}): string {
  const message = { tag: PROTOCOL_TAG, type: "challenge-notified", paymentid, outcome };
  return (
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Verification finished</title></head><body>` +
    `<p>${outcome === "completed" ? "Verified. Finishing the payment…" : "The verification did not succeed."}</p>` +
    `<script nonce="${nonce}">parent.postMessage(${scriptJson(message)}, location.origin)</script></body></html>`
  );
}

/**
 * The 3DS Method page (3dsmethod.rst), hidden inside the controller frame: posts threeDSMethodData to
 * the ACS's method URL in its inner frame, where the ACS reads the browser and then posts its
 * notification to our method-notify page. Ids only: no card data.
 */
export function methodPageHtml({ methodUrl, methodData, nonce }: { methodUrl: string; methodData: string; nonce: string }): string {
  return (
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Card verification</title></head><body>` +
    `<iframe name="acs-method" title="Card verification" hidden></iframe>` +
    `<form id="method-form" method="post" action="${escapeHtml(methodUrl)}" target="acs-method">` +
    `<input type="hidden" name="threeDSMethodData" value="${escapeHtml(methodData)}"></form>` +
    `<script nonce="${nonce}">document.getElementById("method-form").submit()</script></body></html>`
  );
}

/** The page the ACS posts the method notification to: tells the controller (two frames up) to go on. */
export function methodNotifyPageHtml({ paymentid, nonce }: { paymentid: string; nonce: string }): string {
  const message = { tag: PROTOCOL_TAG, type: "method-notified", paymentid };
  return (
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Card verification</title></head><body>` +
    `<script nonce="${nonce}">parent.parent.postMessage(${scriptJson(message)}, location.origin)</script></body></html>`
  );
}

/** Shown instead of a field for an unknown, expired or finished session; tells the merchant page why. */
export function refusalPageHtml({
  sessionid,
  field,
  reason,
  nonce,
  parentOrigin,
}: {
  sessionid: string;
  field: string;
  reason: string;
  nonce: string;
  parentOrigin?: string;
}): string {
  const message = { tag: PROTOCOL_TAG, sessionid, type: "load-error", field, reason };
  const notify = parentOrigin
    ? `<script nonce="${nonce}">(function(){var m=${scriptJson(message)};m.channel=new URLSearchParams(location.hash.slice(1)).get("c")||"";parent.postMessage(m,${scriptJson(parentOrigin)})})()</script>`
    : "";
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Unavailable</title></head><body><p>${escapeHtml(reason)}</p>${notify}</body></html>`;
}
