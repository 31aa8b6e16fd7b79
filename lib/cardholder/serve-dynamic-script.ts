// dynamic.js for one session: the bundled script and, in front of it, the session's configuration
// (element ids, time left in the window, the signed binding to the page origin that loads it, and
// the field frames' heights for the session's styling).
import { config } from "../env";
import { browserBundle } from "./browser-bundles";
import { scriptJson } from "./frame-page";
import { getHostedSession, REFUSAL_REASONS } from "./get-hosted-session";
import { createOriginBinding, pageOriginFromHeaders } from "./origin-binding";
import { isCheckoutOriginAllowed } from "./allowed-checkout-origins";
import { ERROR_TEXTS, type ScriptConfig } from "./protocol";
import { frameHeights } from "./field-frame-height";
import { isDatabaseOverload, OVERLOAD_RETRY_AFTER_SECONDS } from "../errors";

const DEFAULT_SINGLE_ID = "ccsingle";
const DEFAULT_CHALLENGE_ID = "challenge";

function scriptResponse(body: string, status = 200): Response {
  return new Response(body, {
    status,
    headers: {
      "content-type": "text/javascript; charset=utf-8",
      "cache-control": "no-store",
      "x-content-type-options": "nosniff",
      "cross-origin-resource-policy": "cross-origin",
      "access-control-allow-origin": "*",
    },
  });
}

/** The body of dynamic.js: the bundle, then its boot() with this session's configuration. */
export function dynamicScriptBody(code: string, scriptConfig: ScriptConfig): string {
  return `(function(){${code}\nCPSDynamic.boot(${scriptJson(scriptConfig)});})();\n`;
}

export async function serveDynamicScript(request: Request, sessionId: string): Promise<Response> {
  let session: Awaited<ReturnType<typeof getHostedSession>>;
  try {
    session = await getHostedSession({ sessionId });
  } catch (error) {
    if (!isDatabaseOverload(error)) throw error;
    // Overloaded (no database connection in time): a script that says so instead of a 500.
    const busy = scriptResponse(`console.error(${scriptJson(`dynamic.js: ${ERROR_TEXTS.SERVICE_UNAVAILABLE}`)});`, 503);
    busy.headers.set("retry-after", String(OVERLOAD_RETRY_AFTER_SECONDS));
    return busy;
  }
  if (!session) return scriptResponse(`console.error(${scriptJson(`dynamic.js: ${REFUSAL_REASONS.unknown}`)});`, 404);
  const requestOrigin = pageOriginFromHeaders(request.headers);
  // Where the merchant lists its checkout origins, any other page gets no binding, so no frame of
  // this session can be shown there (the headers only name the page; the list is what is trusted).
  const allowed = requestOrigin !== undefined && isCheckoutOriginAllowed(session.allowedOrigins, requestOrigin);
  const pageOrigin = allowed ? requestOrigin : undefined;
  const closedReason =
    session.state === "expired" || session.state === "finished"
      ? REFUSAL_REASONS[session.state]
      : !requestOrigin
        ? 'The page origin is unknown: the browser sent no Referer. Load dynamic.js with referrerpolicy="origin".'
        : !allowed
          ? `This page's origin (${requestOrigin}) is not one of the merchant's allowed checkout origins.`
          : undefined;
  const scriptConfig: ScriptConfig = {
    sessionid: session.id,
    origin: new URL(config().apiBaseUrls.cit).origin,
    binding: pageOrigin ? createOriginBinding(session.id, pageOrigin) : "",
    elements: { ...session.elements, ccsingle: DEFAULT_SINGLE_ID, challenge: DEFAULT_CHALLENGE_ID },
    expiresInMs: session.expiresAt.getTime() - Date.now(),
    ...(closedReason ? { closedReason } : {}),
    onBehalf: session.onBehalf,
    frameHeights: frameHeights(session.styling),
  };
  const { code } = await browserBundle("dynamic");
  return scriptResponse(dynamicScriptBody(code, scriptConfig));
}
