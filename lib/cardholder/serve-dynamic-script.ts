// dynamic.js for one session: the bundled script and, in front of it, the session's configuration
// (element ids, time left in the window, and the signed binding to the page origin that loads it).
import { config } from "../env";
import { browserBundle } from "./browser-bundles";
import { scriptJson } from "./frame-page";
import { getHostedSession, REFUSAL_REASONS } from "./get-hosted-session";
import { createOriginBinding, pageOriginFromHeaders } from "./origin-binding";
import type { ScriptConfig } from "./protocol";

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

export async function serveDynamicScript(request: Request, sessionId: string): Promise<Response> {
  const session = await getHostedSession({ sessionId });
  if (!session) return scriptResponse(`console.error(${scriptJson(`dynamic.js: ${REFUSAL_REASONS.unknown}`)});`, 404);
  const pageOrigin = pageOriginFromHeaders(request.headers);
  const closedReason =
    session.state === "expired" || session.state === "finished"
      ? REFUSAL_REASONS[session.state]
      : pageOrigin
        ? undefined
        : 'The page origin is unknown: the browser sent no Referer. Load dynamic.js with referrerpolicy="origin".';
  const scriptConfig: ScriptConfig = {
    sessionid: session.id,
    origin: new URL(config().apiBaseUrls.cit).origin,
    binding: pageOrigin ? createOriginBinding(session.id, pageOrigin) : "",
    elements: { ...session.elements, ccsingle: DEFAULT_SINGLE_ID, challenge: DEFAULT_CHALLENGE_ID },
    expiresInMs: session.expiresAt.getTime() - Date.now(),
    ...(closedReason ? { closedReason } : {}),
    onBehalf: session.onBehalf,
  };
  const { code } = await browserBundle("dynamic");
  return scriptResponse(`(function(){${code}\nCPSDynamic.boot(${scriptJson(scriptConfig)});})();\n`);
}
