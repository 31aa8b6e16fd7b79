// The address of the challenge page for one 3-D Secure challenge. The ACS address and the CReq
// travel in the address (they are not secret: ids only, no card data) and are signed, so that our
// challenge page only ever posts to the ACS the directory server named for this payment.
import { createHmac, timingSafeEqual } from "node:crypto";
import { config } from "../env";

export interface ChallengeTarget {
  acsUrl: string;
  creq: string;
}

function sign(sessionId: string, paymentId: string, { acsUrl, creq }: ChallengeTarget): string {
  return createHmac("sha256", config().secrets.sessionSecret)
    .update(`challenge:${sessionId}:${paymentId}:${acsUrl}:${creq}`)
    .digest("base64url");
}

/** Path (relative to our origin) of the challenge page; dynamic.js adds the origin binding. */
export function challengePagePath(sessionId: string, paymentId: string, target: ChallengeTarget): string {
  const query = new URLSearchParams({ acs: target.acsUrl, creq: target.creq, s: sign(sessionId, paymentId, target) });
  return `/dynamic/${sessionId}/payments/${paymentId}/challenge?${query.toString()}`;
}

export function readChallengeTarget(sessionId: string, paymentId: string, query: URLSearchParams): ChallengeTarget | undefined {
  const acsUrl = query.get("acs");
  const creq = query.get("creq");
  const given = query.get("s");
  if (!acsUrl || !creq || !given || !/^https?:\/\//.test(acsUrl)) return undefined;
  const expected = Buffer.from(sign(sessionId, paymentId, { acsUrl, creq }));
  const actual = Buffer.from(given);
  return expected.length === actual.length && timingSafeEqual(expected, actual) ? { acsUrl, creq } : undefined;
}
