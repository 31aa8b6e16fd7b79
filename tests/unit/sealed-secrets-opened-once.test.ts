// A process opens the same sealed values over and over (an acquirer account's credentials and a
// merchant's signing secret on every capture), so it keeps what it opened (openedOnce in
// lib/cards/sealed-secret.ts). What must not change with that: an altered or moved value still fails,
// every time; a value whose card key leaves the configuration no longer opens, though it opened before;
// a value resealed under a new key opens; the credentials handed out cannot be changed by a caller.
import { describe, expect, it } from "vitest";
import { CardKeyUnavailableError } from "@/lib/cards/card-encryption";
import { openSecret, sealSecret } from "@/lib/cards/sealed-secret";
import { newCardKey, useCardKeys, useCardKeysPerTest } from "@/tests/helpers/card-keys";
import { openCredentials, resealCredentials, sealCredentials } from "@/lib/routing/accounts/seal-credentials";

const keyA = newCardKey();
const keyB = newCardKey();
const PURPOSE = { prefix: "test1", label: "card-payment-service/test-secret/v1" };

/** The sealed value with one byte of its ciphertext flipped. */
function altered(sealed: string): string {
  const [prefix, keyId, payload = ""] = sealed.split(":");
  const raw = Buffer.from(payload, "base64");
  raw[raw.length - 1]! ^= 1;
  return `${prefix}:${keyId}:${raw.toString("base64")}`;
}

describe("sealed values opened once per process", () => {
  useCardKeysPerTest(keyA);

  it("opens the same value to the same secret again, and an altered or moved one fails every time", () => {
    const sealed = sealSecret(PURPOSE, "whsec_first", "merchant-1");
    expect(openSecret(PURPOSE, sealed, "merchant-1")).toBe("whsec_first");
    expect(openSecret(PURPOSE, sealed, "merchant-1")).toBe("whsec_first");
    for (let attempt = 0; attempt < 2; attempt++) {
      expect(() => openSecret(PURPOSE, altered(sealed), "merchant-1")).toThrow();
      expect(() => openSecret(PURPOSE, sealed, "merchant-2")).toThrow();
      expect(() => openSecret({ ...PURPOSE, prefix: "test2" }, sealed, "merchant-1")).toThrow();
    }
  });

  it("a value opened before no longer opens once its card key is taken out of the configuration", () => {
    const sealed = sealSecret(PURPOSE, "whsec_old", "merchant-1");
    expect(openSecret(PURPOSE, sealed, "merchant-1")).toBe("whsec_old");
    useCardKeys(keyB, keyA); // rotated: the old key is still a previous one
    expect(openSecret(PURPOSE, sealed, "merchant-1")).toBe("whsec_old");
    useCardKeys(keyB); // the old key is gone
    expect(() => openSecret(PURPOSE, sealed, "merchant-1")).toThrow(CardKeyUnavailableError);
  });

  it("acquirer credentials: the same frozen credentials for the same sealed value, a reseal opens, another account's binding fails", () => {
    const sealed = sealCredentials({ processor: "clearhaus", credentials: { apiKey: "5c1b7c2e-8f3a-4d6b-9e21-0a4f6d2c9b17" } } as never, "account-1");
    const first = openCredentials(sealed, "account-1");
    expect(first).toMatchObject({ processor: "clearhaus", credentials: { apiKey: "5c1b7c2e-8f3a-4d6b-9e21-0a4f6d2c9b17" } });
    expect(openCredentials(sealed, "account-1")).toBe(first);
    expect(Object.isFrozen(first) && Object.isFrozen(first.credentials)).toBe(true);
    expect(() => {
      (first.credentials as Record<string, string>).apiKey = "changed";
    }).toThrow(TypeError);
    expect(() => openCredentials(sealed, "account-2")).toThrow();

    useCardKeys(keyB, keyA);
    const resealed = resealCredentials(sealed, "account-1");
    expect(resealed.credentialsKeyId).not.toBe(sealed.credentialsKeyId);
    useCardKeys(keyB);
    expect(openCredentials(resealed, "account-1")).toMatchObject({ credentials: { apiKey: "5c1b7c2e-8f3a-4d6b-9e21-0a4f6d2c9b17" } });
    expect(() => openCredentials(sealed, "account-1")).toThrow(CardKeyUnavailableError);
  });
});
