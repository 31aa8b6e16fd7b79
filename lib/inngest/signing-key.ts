// The key that signs call requests to /api/inngest. In server mode it is INNGEST_SIGNING_KEY (the
// Inngest server signs with it). In embedded mode it is derived from the local API-key secret, so
// the executor and the serve handler agree without another secret to configure or store.
import { createHmac } from "node:crypto";
import { config } from "../env";

export function embeddedSigningKey(): string {
  const derived = createHmac("sha256", config().secrets.apiKeySecret).update("inngest-embedded-signing-key").digest("hex");
  return `signkey-local-${derived}`;
}

/** The signing key of the current mode; undefined in server mode without INNGEST_SIGNING_KEY (dev server). */
export function inngestSigningKey(): string | undefined {
  const settings = config();
  return settings.inngestMode === "embedded" ? embeddedSigningKey() : settings.INNGEST_SIGNING_KEY;
}
