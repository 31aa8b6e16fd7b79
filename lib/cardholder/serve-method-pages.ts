// The two pages of the 3DS Method (3dsecure.io 3dsmethod.rst, EMV 3DS 2.2 browser flow): the method
// page, hidden in the controller frame, posts threeDSMethodData to the ACS's method URL (the browser
// must post it: the ACS reads the cardholder's browser); the ACS posts its notification to the
// method-notify page, which records it (lib/threeds/record-method-notification.ts) and tells the
// controller to go on. docs/decisions/0115-the-3ds-method-in-the-hosted-fields.md.
import { db } from "../db";
import { BodyTooLargeError, payloadTooLargeResponse, readLimitedBody } from "../http/read-limited-body";
import { recordMethodNotification } from "../threeds/record-method-notification";
import { threeDsMethodData } from "../threeds/start-authentication";
import { methodNotifyPageHtml, methodPageHtml, newNonce, pageResponse } from "./frame-page";
import { methodNotificationUrl } from "./method-link";
import { verifyOriginBinding } from "./origin-binding";
import { checkFrameRequest } from "./serve-frame-page";

export async function serveMethodPage(request: Request, sessionId: string, paymentId: string): Promise<Response> {
  const checked = await checkFrameRequest(request, sessionId, "method", true);
  if (checked instanceof Response) return checked;
  const session = await db().paymentSession.findUnique({ where: { id: sessionId }, select: { paymentId: true } });
  const waiting =
    session?.paymentId === paymentId
      ? await db().threeDsAuthentication.findFirst({
          where: { paymentId, state: "method", methodUrl: { not: null } },
          orderBy: { createdAt: "desc" },
          select: { threeDsServerTransId: true, methodUrl: true },
        })
      : null;
  if (!waiting?.methodUrl) return new Response("no 3DS Method waits for this payment", { status: 404 });
  const binding = new URL(request.url).searchParams.get("b") ?? undefined;
  const nonce = newNonce();
  return pageResponse({
    html: methodPageHtml({
      methodUrl: waiting.methodUrl,
      methodData: threeDsMethodData(waiting.threeDsServerTransId, methodNotificationUrl(sessionId, paymentId, binding)),
      nonce,
    }),
    nonce,
    // Inside our controller frame, inside the merchant page; it posts to and frames the method URL's origin only.
    frameAncestors: ["'self'", checked.parentOrigin],
    acsOrigin: new URL(waiting.methodUrl).origin,
  });
}

/** The notification is one short form field; anyone can post here, so the body is read with a cap. */
const MAX_NOTIFY_BODY_BYTES = 8 * 1024;

export async function serveMethodNotify(request: Request, sessionId: string, paymentId: string): Promise<Response> {
  let methodData: string | undefined;
  try {
    const bytes = await readLimitedBody(request, MAX_NOTIFY_BODY_BYTES);
    const value = new URLSearchParams(new TextDecoder().decode(bytes)).get("threeDSMethodData");
    methodData = value ?? undefined;
  } catch (error) {
    if (error instanceof BodyTooLargeError) return payloadTooLargeResponse(MAX_NOTIFY_BODY_BYTES);
    throw error;
  }
  const session = await db().paymentSession.findUnique({ where: { id: sessionId }, select: { paymentId: true } });
  const outcome = session?.paymentId === paymentId ? await recordMethodNotification({ paymentId, methodData }) : ("refused" as const);
  const parentOrigin = verifyOriginBinding(sessionId, new URL(request.url).searchParams.get("b"));
  const nonce = newNonce();
  return pageResponse({
    html: methodNotifyPageHtml({ paymentid: paymentId, nonce }),
    nonce,
    status: outcome === "recorded" ? 200 : 400,
    // In the method page's inner frame, in the controller frame, in the merchant page.
    frameAncestors: ["'self'", ...(parentOrigin ? [parentOrigin] : [])],
  });
}
