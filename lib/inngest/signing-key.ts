// The key that signs call requests to /api/inngest. In server mode it is INNGEST_SIGNING_KEY (the
// Inngest server signs with it), and INNGEST_SIGNING_KEY_FALLBACK during a key rotation. In embedded
// mode it is derived from the local API-key secret, so the executor and the serve handler agree
// without another secret to configure or store.
import { createHmac, timingSafeEqual } from "node:crypto";
import { config } from "../env";

/** The last derivation, by the secret it came from: the SDK reads the key on every call of a function. */
let derived: { from: string; key: string } | undefined;

export function embeddedSigningKey(): string {
  const secret = config().secrets.apiKeySecret;
  if (derived?.from !== secret) {
    derived = { from: secret, key: `signkey-local-${createHmac("sha256", secret).update("inngest-embedded-signing-key").digest("hex")}` };
  }
  return derived.key;
}

/** The signing key of the current mode; undefined in server mode without INNGEST_SIGNING_KEY (dev server). */
export function inngestSigningKey(): string | undefined {
  const settings = config();
  return settings.inngestMode === "embedded" ? embeddedSigningKey() : settings.INNGEST_SIGNING_KEY;
}

/** Every key a call may be signed with: the current one, then the fallback of a rotation (server mode). */
export function inngestSigningKeys(): string[] {
  const settings = config();
  if (settings.inngestMode === "embedded") return [embeddedSigningKey()];
  return [settings.INNGEST_SIGNING_KEY, settings.INNGEST_SIGNING_KEY_FALLBACK].filter((key): key is string => Boolean(key?.trim()));
}

/**
 * Whether `header` (`t=<unix seconds>&s=<hex>`) is the HMAC-SHA256 of the raw `body` followed by `t`
 * under one of `keys`, as Inngest signs (the key without its `signkey-<env>-` prefix, as text). An
 * Inngest server and our executor send the canonical JSON they sign, so the raw bytes are what was
 * signed; nothing needs to parse them first. The time window is the caller's check.
 */
export function verifyInngestSignature({ body, header, keys }: { body: Uint8Array; header: string; keys: readonly string[] }): boolean {
  const params = new URLSearchParams(header);
  const timestamp = params.get("t") ?? "";
  const given = Buffer.from(params.get("s") ?? "", "hex");
  if (!timestamp || given.length !== 32) return false;
  let matched = false;
  for (const key of keys) {
    const expected = createHmac("sha256", key.replace(/^signkey-\w+-/, ""))
      .update(body)
      .update(timestamp)
      .digest();
    // Every key is tried (no early exit), so the time taken does not tell which one matched.
    if (timingSafeEqual(expected, given)) matched = true;
  }
  return matched;
}
