// The two pages of a 3-D Secure challenge inside the merchant's page: the challenge page (posts the
// CReq to the ACS in its inner frame) and the notification page the ACS posts the CRes to.
import { finishSessionChallenge } from "./finish-session-challenge";
import { browserBundle } from "./browser-bundles";
import { readChallengeTarget } from "./challenge-link";
import { challengeNotifyPageHtml, challengePageHtml, newNonce, pageResponse } from "./frame-page";
import { verifyOriginBinding } from "./origin-binding";
import { checkFrameRequest } from "./serve-frame-page";
import { BodyTooLargeError, payloadTooLargeResponse, readLimitedBody } from "../http/read-limited-body";

export async function serveChallengePage(request: Request, sessionId: string, paymentId: string): Promise<Response> {
  const checked = await checkFrameRequest(request, sessionId, "challenge", true);
  if (checked instanceof Response) return checked;
  const target = readChallengeTarget(sessionId, paymentId, new URL(request.url).searchParams);
  if (!target) return new Response("unknown challenge", { status: 404 });
  const nonce = newNonce();
  const script = await browserBundle("frames");
  const acsOrigin = new URL(target.acsUrl).origin;
  return pageResponse({
    html: challengePageHtml({
      config: { sessionid: sessionId, field: "challenge", parentOrigin: checked.parentOrigin, paymentid: paymentId },
      acsUrl: target.acsUrl,
      formFields: { creq: target.creq },
      script,
      nonce,
    }),
    nonce,
    frameAncestors: [checked.parentOrigin],
    acsOrigin,
  });
}

/** A CRes form is a few kilobytes; anyone can post here, so the body is read with a cap. */
const MAX_NOTIFY_BODY_BYTES = 64 * 1024;

async function readForm(request: Request): Promise<FormData | undefined | Response> {
  try {
    const bytes = await readLimitedBody(request, MAX_NOTIFY_BODY_BYTES);
    const contentType = request.headers.get("content-type") ?? "application/x-www-form-urlencoded";
    return await new Response(new Uint8Array(bytes), { headers: { "content-type": contentType } }).formData();
  } catch (error) {
    return error instanceof BodyTooLargeError ? payloadTooLargeResponse(MAX_NOTIFY_BODY_BYTES) : undefined;
  }
}

export async function serveChallengeNotify(request: Request, sessionId: string, paymentId: string): Promise<Response> {
  const form = await readForm(request);
  if (form instanceof Response) return form;
  const cres = form?.get("cres");
  const outcome = await finishSessionChallenge({ sessionId, paymentId, cres: typeof cres === "string" ? cres : undefined });
  // This page sits in the ACS frame inside our challenge page inside the merchant page.
  const parentOrigin = verifyOriginBinding(sessionId, new URL(request.url).searchParams.get("b"));
  const nonce = newNonce();
  return pageResponse({
    html: challengeNotifyPageHtml({ paymentid: paymentId, outcome, nonce }),
    nonce,
    frameAncestors: ["'self'", ...(parentOrigin ? [parentOrigin] : [])],
  });
}
