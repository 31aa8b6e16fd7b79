// The embedded mode's signing key (lib/inngest/signing-key.ts): derived from API_KEY_SECRET and kept
// once derived, as the SDK reads it on every call of a function; a changed secret (another
// configuration of the process, as tests make) gives the key of the new secret, never the old one.
import { createHmac } from "node:crypto";
import { afterAll, describe, expect, it } from "vitest";
import { resetConfig } from "@/lib/env";
import { embeddedSigningKey, inngestSigningKey } from "@/lib/inngest/signing-key";

const SAVED = { ...process.env };

afterAll(() => {
  for (const key of Object.keys(process.env)) if (!(key in SAVED)) delete process.env[key];
  Object.assign(process.env, SAVED);
  resetConfig();
});

function configureSecret(secret: string): void {
  Object.assign(process.env, { API_KEY_SECRET: secret });
  delete process.env.INNGEST_BASE_URL;
  delete process.env.INNGEST_DEV;
  resetConfig();
}

const expected = (secret: string) => `signkey-local-${createHmac("sha256", secret).update("inngest-embedded-signing-key").digest("hex")}`;

describe("the embedded signing key", () => {
  it("is the HMAC of the API-key secret, the same on every read, and follows a changed secret", () => {
    configureSecret("a".repeat(40));
    expect(embeddedSigningKey()).toBe(expected("a".repeat(40)));
    expect(inngestSigningKey()).toBe(embeddedSigningKey());
    configureSecret("b".repeat(40));
    expect(embeddedSigningKey()).toBe(expected("b".repeat(40)));
    expect(embeddedSigningKey()).not.toBe(expected("a".repeat(40)));
  });
});
