// The 3-D Secure sandbox: a directory server and an access control server in one. /auth answers an
// AReq with an ARes (frictionless Y, or C with the ACS URL for the challenge cards), /acs/challenge
// shows the challenge page a person completes, fails or cancels, and /postauth gives the 3DS server
// the RReq result, so the gateway never trusts what the browser posts back.
import { createHmac, randomBytes, randomUUID } from "node:crypto";

/**
 * The AReq names the currency by its ISO 4217 number ("208"); a cardholder reads letters ("DKK"), as
 * an issuer's challenge page shows them. Numbers not listed are shown as they came.
 */
const ISO_4217_LETTERS: Record<string, string> = {
  "036": "AUD", "048": "BHD", "124": "CAD", "156": "CNY", "203": "CZK", "208": "DKK", "344": "HKD", "348": "HUF",
  "352": "ISK", "356": "INR", "376": "ILS", "392": "JPY", "410": "KRW", "414": "KWD", "484": "MXN", "512": "OMR",
  "554": "NZD", "578": "NOK", "643": "RUB", "682": "SAR", "702": "SGD", "710": "ZAR", "752": "SEK", "756": "CHF",
  "784": "AED", "826": "GBP", "840": "USD", "946": "RON", "949": "TRY", "978": "EUR", "985": "PLN", "986": "BRL",
};

function currencyLabel(numeric: string): string {
  return ISO_4217_LETTERS[numeric] ?? numeric;
}
import { schemeFromPan } from "../../cards/card-scheme";
import { findTestCard } from "../acquirers/test-cards";
import { sameSecret, type FetchHandler } from "../acquirers/serve";
import { areq, creq, decodeBase64Url, encodeBase64Url, type ARes, type CRes, type RReq } from "../../threeds/messages";

/**
 * This process's sandbox API key: random at every start, never written in the source (it was once a
 * constant, and anyone could then start authentications on the service's mounted sandbox). The
 * launcher registers it with the 3DS client as configuration; `npm run sandbox` prints it.
 */
export const THREEDS_SANDBOX_API_KEY = randomBytes(32).toString("base64url");
/** The only path a notificationURL may have: the service's own challenge-notify address. */
const CHALLENGE_NOTIFY_PATH = /^\/dynamic\/[A-Za-z0-9]{1,64}\/payments\/[A-Za-z0-9]{1,32}\/challenge-notify$/;
/** The one-time code the sandbox challenge page accepts. */
export const SANDBOX_CHALLENGE_CODE = "1234";
const MAX_CODE_ATTEMPTS = 3;

interface Transaction {
  threeDSServerTransID: string;
  acsTransID: string;
  dsTransID: string;
  messageVersion: string;
  scheme: "visa" | "mastercard" | "amex";
  last4: string;
  amount: string;
  currency: string;
  exponent: number;
  notificationURL: string;
  codeAttempts: number;
  createdAt: number;
  result?: RReq;
}

export interface ThreeDsSandboxOptions {
  /** How long a challenge may stay unfinished before the ACS ends it (transStatus N, reason 14); EMV's screen time-out is 10 min. */
  challengeTimeoutMs?: number;
  apiKey?: string;
  /** Public origin of the sandbox as the cardholder's browser reaches it; default: the request's own origin. */
  publicUrl?: string;
  /**
   * The origin whose challenge-notify address an AReq's notificationURL must be. Default: the origin
   * of `publicUrl` (a sandbox mounted on the service accepts only that service's address); without
   * either, any http(s) origin with the challenge-notify path (a sandbox run on its own).
   */
  notificationOrigin?: string;
}

export interface ThreeDsSandbox {
  handler: FetchHandler;
  /** The key /auth and /postauth require. */
  apiKey: string;
}

function eciFor(scheme: Transaction["scheme"], status: "Y" | "A"): string {
  if (scheme === "mastercard") return status === "Y" ? "02" : "01";
  return status === "Y" ? "05" : "06";
}

function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (character) => `&#${character.charCodeAt(0)};`);
}

/**
 * Every page of the sandbox ACS: one inline style and at most one inline script, both allowed by a
 * per-response nonce and nothing else; forms may go only to `formAction` (the sandbox itself, or the
 * checked notification address). Real ACS pages are framed by any 3DS requestor, hence frame-ancestors *.
 */
function html(
  body: (nonce: string) => string,
  { status = 200, formAction = "'self'" }: { status?: number; formAction?: string } = {},
): Response {
  const nonce = randomBytes(16).toString("base64");
  const csp = [
    "default-src 'none'",
    `script-src 'nonce-${nonce}'`,
    `style-src 'nonce-${nonce}'`,
    `form-action ${formAction}`,
    "frame-ancestors *",
    "base-uri 'none'",
  ].join("; ");
  return new Response(
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>3-D Secure</title>
<style nonce="${nonce}">body{font-family:system-ui,sans-serif;max-width:380px;margin:24px auto;padding:0 16px;color:#1f2937}h1{font-size:18px}dl{display:grid;grid-template-columns:auto 1fr;gap:4px 12px}dt{color:#6b7280}input{font-size:18px;padding:6px;width:8em;letter-spacing:4px}button{margin:12px 8px 0 0;padding:8px 14px;font-size:15px;cursor:pointer}.error{color:#b91c1c}</style></head><body>${body(nonce)}</body></html>`,
    {
      status,
      headers: {
        "content-type": "text/html; charset=utf-8",
        "cache-control": "no-store",
        "content-security-policy": csp,
        "x-content-type-options": "nosniff",
        "referrer-policy": "same-origin",
      },
    },
  );
}

/** The notificationURL of an AReq, when it is a challenge-notify address on the allowed origin. */
export function acceptableNotificationUrl(value: string, notificationOrigin: string | undefined): string | undefined {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return undefined;
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") return undefined;
  if (url.username || url.password || url.hash) return undefined;
  if (notificationOrigin && url.origin !== new URL(notificationOrigin).origin) return undefined;
  return CHALLENGE_NOTIFY_PATH.test(url.pathname) ? url.href : undefined;
}

export function createThreeDsSandbox(options: ThreeDsSandboxOptions = {}): ThreeDsSandbox {
  const apiKey = options.apiKey ?? THREEDS_SANDBOX_API_KEY;
  const notificationOrigin = options.notificationOrigin ?? (options.publicUrl ? new URL(options.publicUrl).origin : undefined);
  const challengeTimeoutMs = options.challengeTimeoutMs ?? 10 * 60_000;
  const byServerId = new Map<string, Transaction>();
  const byAcsId = new Map<string, Transaction>();
  const avKey = randomUUID();

  function authenticationValue(transaction: Transaction): string {
    return createHmac("sha256", avKey).update(transaction.dsTransID).digest().subarray(0, 20).toString("base64");
  }

  function finish(transaction: Transaction, outcome: "Y" | "N" | "cancel" | "timeout"): RReq {
    const status = outcome === "Y" ? "Y" : "N";
    // transStatusReason: 01 authentication failed, 10 cancelled by the cardholder, 14 timed out at the ACS.
    const reason = outcome === "cancel" ? "10" : outcome === "timeout" ? "14" : "01";
    transaction.result = {
      messageType: "RReq",
      messageVersion: transaction.messageVersion,
      threeDSServerTransID: transaction.threeDSServerTransID,
      acsTransID: transaction.acsTransID,
      dsTransID: transaction.dsTransID,
      transStatus: status,
      ...(status === "Y"
        ? { authenticationValue: authenticationValue(transaction), eci: eciFor(transaction.scheme, "Y") }
        : { transStatusReason: reason }),
      ...(outcome === "cancel" ? { challengeCancel: "01" } : outcome === "timeout" ? { challengeCancel: "05" } : {}),
    };
    return transaction.result;
  }

  /** A challenge left unfinished past the time-out is ended by the ACS. */
  function expireIfStale(transaction: Transaction): void {
    if (!transaction.result && Date.now() - transaction.createdAt > challengeTimeoutMs) finish(transaction, "timeout");
  }

  function challengePage(transaction: Transaction, sessionData: string, error?: string): Response {
    const amount = (Number(transaction.amount) / 10 ** transaction.exponent).toFixed(transaction.exponent);
    const hidden = `<input type="hidden" name="acsTransID" value="${escapeHtml(transaction.acsTransID)}"><input type="hidden" name="threeDSSessionData" value="${escapeHtml(sessionData)}">`;
    return html(
      () => `<h1>Confirm your payment</h1>
<p>Sandbox bank: enter the code <strong>${SANDBOX_CHALLENGE_CODE}</strong> sent to your phone.</p>
<dl><dt>Card</dt><dd>•••• ${escapeHtml(transaction.last4)}</dd><dt>Amount</dt><dd>${escapeHtml(amount)} ${escapeHtml(currencyLabel(transaction.currency))}</dd></dl>
${error ? `<p class="error" role="alert">${escapeHtml(error)}</p>` : ""}
<form method="post" action="challenge/submit">${hidden}
<label>Code <input name="code" inputmode="numeric" autocomplete="one-time-code" autofocus></label><br>
<button type="submit" name="action" value="complete">Complete</button>
<button type="submit" name="action" value="fail">Fail authentication</button>
<button type="submit" name="action" value="cancel">Cancel</button>
</form>`,
    );
  }

  function postCres(transaction: Transaction, sessionData: string): Response {
    const result = transaction.result!;
    const message: CRes = {
      messageType: "CRes",
      messageVersion: transaction.messageVersion,
      threeDSServerTransID: transaction.threeDSServerTransID,
      acsTransID: transaction.acsTransID,
      transStatus: result.transStatus === "Y" ? "Y" : "N",
      challengeCompletionInd: "Y",
    };
    const sessionField = sessionData ? `<input type="hidden" name="threeDSSessionData" value="${escapeHtml(sessionData)}">` : "";
    // notificationURL was checked when the AReq came in; CSP limits the form to its origin as well.
    return html(
      (nonce) => `<p>Returning to the merchant…</p>
<form id="cres" method="post" action="${escapeHtml(transaction.notificationURL)}"><input type="hidden" name="cres" value="${encodeBase64Url(message)}">${sessionField}<noscript><button type="submit">Continue</button></noscript></form>
<script nonce="${nonce}">document.getElementById("cres").submit();</script>`,
      { formAction: new URL(transaction.notificationURL).origin },
    );
  }

  const handler: FetchHandler = async (request) => {
    const url = new URL(request.url);
    const origin = options.publicUrl?.replace(/\/+$/, "") ?? url.origin;
    const path = url.pathname;

    if (request.method === "POST" && (path === "/auth" || path === "/postauth" || path === "/preauth")) {
      if (!sameSecret(request.headers.get("apikey") ?? "", apiKey)) return Response.json({ error: "invalid APIKey" }, { status: 401 });
      let json: unknown;
      try {
        json = await request.json();
      } catch {
        return Response.json({ messageType: "Erro", errorCode: "101", errorDescription: "message is not JSON" }, { status: 400 });
      }
      if (path === "/preauth") {
        // The lenient sandbox's CRD: a fresh id, 2.1.0-2.2.0, no 3DS Method (the strict 3DS Server
        // sandbox, three-ds-server.ts, has the reference's method and version test cards).
        const pan = typeof json === "object" && json && "acctNumber" in json ? String(json.acctNumber) : "";
        if (!/^\d{13,19}$/.test(pan) || !schemeFromPan(pan))
          return Response.json(
            { messageType: "Erro", errorCode: "305", errorComponent: "S", errorDescription: "Unknown BIN" },
            { status: 400 },
          );
        return Response.json({
          messageType: "CRD",
          threeDSServerTransID: randomUUID(),
          acsProtocolVersions: [{ version: "2.1.0" }, { version: "2.2.0" }],
          acsStartProtocolVersion: "2.1.0",
          acsEndProtocolVersion: "2.2.0",
          dsStartProtocolVersion: "2.1.0",
          dsEndProtocolVersion: "2.2.0",
        });
      }
      if (path === "/postauth") {
        const id = typeof json === "object" && json && "threeDSServerTransID" in json ? String(json.threeDSServerTransID) : "";
        const transaction = byServerId.get(id);
        if (transaction) expireIfStale(transaction);
        if (!transaction)
          return Response.json(
            { messageType: "Erro", errorCode: "301", errorDescription: "unknown threeDSServerTransID" },
            { status: 404 },
          );
        // 3dsecure.io's documented answer before the RReq (decoupled_authentication.rst); there is no 409 "pending".
        if (!transaction.result)
          return Response.json(
            {
              messageType: "Erro",
              errorCode: "305",
              errorComponent: "S",
              errorDescription: "No RReq has been received",
              errorDetail: "No response from directory server yet",
            },
            { status: 400 },
          );
        return Response.json(transaction.result);
      }
      const parsed = areq.safeParse(json);
      if (!parsed.success)
        return Response.json(
          { messageType: "Erro", errorCode: "203", errorDescription: parsed.error.issues.map((issue) => issue.path.join(".")).join(", ") },
          { status: 400 },
        );
      const message = parsed.data;
      const notificationURL = acceptableNotificationUrl(message.notificationURL, notificationOrigin);
      if (!notificationURL)
        return Response.json(
          { messageType: "Erro", errorCode: "203", errorDescription: "notificationURL is not the 3DS server's challenge-notify address" },
          { status: 400 },
        );
      const scheme = schemeFromPan(message.acctNumber);
      if (!scheme)
        return Response.json({ messageType: "Erro", errorCode: "305", errorDescription: "card range not participating" }, { status: 400 });
      const transaction: Transaction = {
        threeDSServerTransID: message.threeDSServerTransID,
        acsTransID: randomUUID(),
        dsTransID: randomUUID(),
        messageVersion: message.messageVersion,
        scheme,
        last4: message.acctNumber.slice(-4),
        amount: message.purchaseAmount,
        currency: message.purchaseCurrency,
        exponent: Number(message.purchaseExponent),
        notificationURL,
        codeAttempts: 0,
        createdAt: Date.now(),
      };
      byServerId.set(transaction.threeDSServerTransID, transaction);
      byAcsId.set(transaction.acsTransID, transaction);
      const challenge = findTestCard(message.acctNumber)?.threeDs === "challenge";
      const answer: ARes = {
        messageType: "ARes",
        messageVersion: message.messageVersion,
        threeDSServerTransID: transaction.threeDSServerTransID,
        acsTransID: transaction.acsTransID,
        dsTransID: transaction.dsTransID,
        transStatus: challenge ? "C" : "Y",
        ...(challenge
          ? { acsURL: `${origin}/acs/challenge`, acsChallengeMandated: "Y" as const }
          : { authenticationValue: authenticationValue(transaction), eci: eciFor(scheme, "Y") }),
      };
      if (!challenge) finish(transaction, "Y");
      return Response.json(answer);
    }

    if (request.method === "POST" && path === "/acs/challenge") {
      const form = new URLSearchParams(await request.text());
      const message = decodeBase64Url(creq, form.get("creq") ?? "");
      const transaction = message ? byAcsId.get(message.acsTransID) : undefined;
      if (!message || !transaction || transaction.threeDSServerTransID !== message.threeDSServerTransID) {
        return html(() => `<h1>Authentication not possible</h1><p class="error">The challenge request is not valid.</p>`, { status: 400 });
      }
      expireIfStale(transaction);
      if (transaction.result) return postCres(transaction, form.get("threeDSSessionData") ?? "");
      return challengePage(transaction, form.get("threeDSSessionData") ?? "");
    }

    if (request.method === "POST" && path === "/acs/challenge/submit") {
      const form = new URLSearchParams(await request.text());
      const transaction = byAcsId.get(form.get("acsTransID") ?? "");
      if (!transaction) return html(() => `<h1>Authentication not possible</h1><p class="error">Unknown transaction.</p>`, { status: 400 });
      const sessionData = form.get("threeDSSessionData") ?? "";
      expireIfStale(transaction);
      if (transaction.result) return postCres(transaction, sessionData);
      switch (form.get("action")) {
        case "complete":
          if (form.get("code")?.trim() === SANDBOX_CHALLENGE_CODE) {
            finish(transaction, "Y");
            break;
          }
          transaction.codeAttempts += 1;
          if (transaction.codeAttempts < MAX_CODE_ATTEMPTS) return challengePage(transaction, sessionData, "Wrong code, try again.");
          finish(transaction, "N");
          break;
        case "cancel":
          finish(transaction, "cancel");
          break;
        default:
          finish(transaction, "N");
      }
      return postCres(transaction, sessionData);
    }

    return Response.json({ error: "not found" }, { status: 404 });
  };

  return { handler, apiKey };
}
