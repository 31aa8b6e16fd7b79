// Serves our pages inside the merchant page: checks the session and the origin binding, then renders.
import { browserBundle } from "./browser-bundles";
import { controllerPageHtml, fieldPageHtml, newNonce, pageResponse, refusalPageHtml } from "./frame-page";
import { getHostedSession, REFUSAL_REASONS, type HostedSession } from "./get-hosted-session";
import { verifyOriginBinding } from "./origin-binding";
import { isCheckoutOriginAllowed } from "./allowed-checkout-origins";
import { ERROR_TEXTS, type FieldKind } from "./protocol";
import { isDatabaseOverload, OVERLOAD_RETRY_AFTER_SECONDS } from "../errors";

type FrameName = FieldKind | "controller";

interface Checked {
  session: HostedSession;
  parentOrigin: string;
}

/** The session and its bound merchant origin, or the refusal page to answer instead. */
export async function checkFrameRequest(
  request: Request,
  sessionId: string,
  frame: string,
  allowProcessing: boolean,
): Promise<Checked | Response> {
  const bound = verifyOriginBinding(sessionId, new URL(request.url).searchParams.get("b"));
  let session: HostedSession | undefined;
  try {
    session = await getHostedSession({ sessionId });
  } catch (error) {
    if (!isDatabaseOverload(error)) throw error;
    // Overloaded (no database connection in time): a "try again" page instead of a 500. Without the
    // session its origin list cannot be read, so the page (which shows nothing of the session) may
    // be framed only by the origin our own signed binding names.
    const nonce = newNonce();
    const html = refusalPageHtml({
      sessionid: sessionId,
      field: frame,
      reason: ERROR_TEXTS.SERVICE_UNAVAILABLE,
      nonce,
      parentOrigin: bound,
    });
    const busy = pageResponse({ html, nonce, status: 503, frameAncestors: bound ? [bound] : [] });
    busy.headers.set("retry-after", String(OVERLOAD_RETRY_AFTER_SECONDS));
    return busy;
  }
  // A binding made before the merchant listed its origins (or changed the list) must not outlive it.
  const parentOrigin = bound && session && isCheckoutOriginAllowed(session.allowedOrigins, bound) ? bound : undefined;
  const refuse = (status: number, reason: string) => {
    const nonce = newNonce();
    return pageResponse({
      html: refusalPageHtml({ sessionid: sessionId, field: frame, reason, nonce, parentOrigin: session ? parentOrigin : undefined }),
      nonce,
      status,
      frameAncestors: session && parentOrigin ? [parentOrigin] : [],
    });
  };
  if (!session) return refuse(404, REFUSAL_REASONS.unknown);
  if (!parentOrigin) return refuse(403, "This address must be opened through the session's dynamic.js.");
  if (session.state === "expired" || session.state === "finished" || session.state === "unknown")
    return refuse(410, REFUSAL_REASONS[session.state]);
  if (session.state === "processing" && !allowProcessing) return refuse(409, "A payment of this session is in progress.");
  return { session, parentOrigin };
}

export async function serveFramePage(request: Request, sessionId: string, frame: FrameName): Promise<Response> {
  const checked = await checkFrameRequest(request, sessionId, frame, frame === "controller");
  if (checked instanceof Response) return checked;
  const { session, parentOrigin } = checked;
  const nonce = newNonce();
  const config = { sessionid: session.id, field: frame, parentOrigin, expiresInMs: session.expiresAt.getTime() - Date.now() };
  const script = await browserBundle("frames");
  if (frame === "controller") {
    // frame-src 'self': the controller runs the 3DS Method in a hidden frame of ours (lib/cardholder/serve-method-pages.ts).
    return pageResponse({ html: controllerPageHtml({ config, script, nonce }), nonce, frameAncestors: [parentOrigin], frameSelf: true });
  }
  const fontOrigins = [...new Set((session.styling.fonts ?? []).map((font) => new URL(font.src).origin))];
  return pageResponse({
    html: fieldPageHtml({ kind: frame, config, styling: session.styling, script, nonce, testMode: session.mode === "test" }),
    nonce,
    frameAncestors: [parentOrigin],
    fontOrigins,
  });
}
