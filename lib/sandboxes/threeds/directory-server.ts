// The 3-D Secure sandbox: a directory server and an access control server in one. /auth answers an
// AReq with an ARes (frictionless Y, or C with the ACS URL for the challenge cards), /acs/challenge
// shows the challenge page a person completes, fails or cancels, and /postauth gives the 3DS server
// the RReq result, so the gateway never trusts what the browser posts back.
import { createHmac, randomUUID } from "node:crypto";
import { schemeFromPan } from "../../cards/card-scheme";
import { findTestCard } from "../acquirers/test-cards";
import { sameSecret, type FetchHandler } from "../acquirers/serve";
import { areq, creq, decodeBase64Url, encodeBase64Url, type ARes, type CRes, type RReq } from "../../threeds/messages";

export const THREEDS_SANDBOX_API_KEY = "threeds-sandbox-api-key";
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
}

export interface ThreeDsSandbox {
  handler: FetchHandler;
}

function eciFor(scheme: Transaction["scheme"], status: "Y" | "A"): string {
  if (scheme === "mastercard") return status === "Y" ? "02" : "01";
  return status === "Y" ? "05" : "06";
}

function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (character) => `&#${character.charCodeAt(0)};`);
}

function html(body: string, status = 200): Response {
  return new Response(
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>3-D Secure</title>
<style>body{font-family:system-ui,sans-serif;max-width:380px;margin:24px auto;padding:0 16px;color:#1f2937}h1{font-size:18px}dl{display:grid;grid-template-columns:auto 1fr;gap:4px 12px}dt{color:#6b7280}input{font-size:18px;padding:6px;width:8em;letter-spacing:4px}button{margin:12px 8px 0 0;padding:8px 14px;font-size:15px;cursor:pointer}.error{color:#b91c1c}</style></head><body>${body}</body></html>`,
    {
      status,
      headers: { "content-type": "text/html; charset=utf-8", "cache-control": "no-store", "content-security-policy": "frame-ancestors *" },
    },
  );
}

export function createThreeDsSandbox(options: ThreeDsSandboxOptions = {}): ThreeDsSandbox {
  const apiKey = options.apiKey ?? THREEDS_SANDBOX_API_KEY;
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
    return html(`<h1>Confirm your payment</h1>
<p>Sandbox bank: enter the code <strong>${SANDBOX_CHALLENGE_CODE}</strong> sent to your phone.</p>
<dl><dt>Card</dt><dd>•••• ${escapeHtml(transaction.last4)}</dd><dt>Amount</dt><dd>${escapeHtml(amount)} ${escapeHtml(transaction.currency)}</dd></dl>
${error ? `<p class="error" role="alert">${escapeHtml(error)}</p>` : ""}
<form method="post" action="challenge/submit">${hidden}
<label>Code <input name="code" inputmode="numeric" autocomplete="one-time-code" autofocus></label><br>
<button type="submit" name="action" value="complete">Complete</button>
<button type="submit" name="action" value="fail">Fail authentication</button>
<button type="submit" name="action" value="cancel">Cancel</button>
</form>`);
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
    return html(`<p>Returning to the merchant…</p>
<form id="cres" method="post" action="${escapeHtml(transaction.notificationURL)}"><input type="hidden" name="cres" value="${encodeBase64Url(message)}">${sessionField}<noscript><button type="submit">Continue</button></noscript></form>
<script>document.getElementById("cres").submit();</script>`);
  }

  const handler: FetchHandler = async (request) => {
    const url = new URL(request.url);
    const origin = options.publicUrl?.replace(/\/+$/, "") ?? url.origin;
    const path = url.pathname;

    if (request.method === "POST" && (path === "/auth" || path === "/postauth")) {
      if (!sameSecret(request.headers.get("apikey") ?? "", apiKey)) return Response.json({ error: "invalid APIKey" }, { status: 401 });
      let json: unknown;
      try {
        json = await request.json();
      } catch {
        return Response.json({ messageType: "Erro", errorCode: "101", errorDescription: "message is not JSON" }, { status: 400 });
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
        if (!transaction.result)
          return Response.json(
            { messageType: "Erro", errorCode: "402", errorDescription: "the challenge is not finished" },
            { status: 409 },
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
        notificationURL: message.notificationURL,
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
        return html(`<h1>Authentication not possible</h1><p class="error">The challenge request is not valid.</p>`, 400);
      }
      expireIfStale(transaction);
      if (transaction.result) return postCres(transaction, form.get("threeDSSessionData") ?? "");
      return challengePage(transaction, form.get("threeDSSessionData") ?? "");
    }

    if (request.method === "POST" && path === "/acs/challenge/submit") {
      const form = new URLSearchParams(await request.text());
      const transaction = byAcsId.get(form.get("acsTransID") ?? "");
      if (!transaction) return html(`<h1>Authentication not possible</h1><p class="error">Unknown transaction.</p>`, 400);
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

  return { handler };
}
