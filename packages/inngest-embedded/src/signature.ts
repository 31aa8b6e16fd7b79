// Request signatures as an Inngest server makes them: X-Inngest-Signature: t=<unix s>&s=<hex>,
// s = HMAC-SHA256(key without its "signkey-<env>-" prefix, as text; body + t). The SDK verifies
// over the JCS canonical form of the body, so the executor always sends canonical JSON.
import { createHmac, timingSafeEqual } from "node:crypto";

function keyMaterial(signingKey: string): string {
  return signingKey.replace(/^signkey-\w+-/, "");
}

export function signatureHeader(options: { body: string; signingKey: string; now: Date }): string {
  const timestamp = Math.floor(options.now.getTime() / 1000);
  const mac = createHmac("sha256", keyMaterial(options.signingKey))
    .update(options.body + timestamp)
    .digest("hex");
  return `t=${timestamp}&s=${mac}`;
}

/** Checks a response's X-Inngest-Signature (HMAC over the raw response body and t). */
export function verifySignature(options: { body: string; signingKey: string; header: string | null }): boolean {
  const match = /^t=(\d+)&s=([0-9a-f]+)$/.exec(options.header ?? "");
  if (!match) return false;
  const expected = createHmac("sha256", keyMaterial(options.signingKey))
    .update(options.body + match[1])
    .digest();
  const given = Buffer.from(match[2] as string, "hex");
  return given.length === expected.length && timingSafeEqual(given, expected);
}
