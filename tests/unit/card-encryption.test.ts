import { randomBytes } from "node:crypto";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { CardKeyUnavailableError, decryptPan, encryptPan, panFingerprint } from "@/lib/cards/card-encryption";
import { resetConfig } from "@/lib/env";

const keyA = randomBytes(32).toString("base64");
const keyB = randomBytes(32).toString("base64");

function useKeys(current: string, previous = "") {
  process.env.CARD_DATA_KEY = current;
  process.env.CARD_DATA_PREVIOUS_KEYS = previous;
  process.env.SESSION_SECRET = "s".repeat(40);
  process.env.API_KEY_SECRET = "a".repeat(40);
  resetConfig();
}

describe("card encryption", () => {
  beforeEach(() => useKeys(keyA));
  afterEach(() => {
    delete process.env.CARD_DATA_KEY;
    delete process.env.CARD_DATA_PREVIOUS_KEYS;
    resetConfig();
  });

  it("round-trips a PAN and never stores it in clear", () => {
    const encrypted = encryptPan("4111111111111111");
    expect(encrypted.panEncrypted).not.toContain("4111111111111111");
    expect(Buffer.from(encrypted.panEncrypted, "base64").toString("latin1")).not.toContain("411111");
    expect(decryptPan(encrypted)).toBe("4111111111111111");
  });

  it("uses a fresh IV each time", () => {
    expect(encryptPan("4111111111111111").panEncrypted).not.toBe(encryptPan("4111111111111111").panEncrypted);
  });

  it("refuses a ciphertext that was tampered with", () => {
    const encrypted = encryptPan("5555555555554444");
    const raw = Buffer.from(encrypted.panEncrypted, "base64");
    raw[raw.length - 1]! ^= 1;
    expect(() => decryptPan({ ...encrypted, panEncrypted: raw.toString("base64") })).toThrow();
  });

  it("still decrypts with a previous key after the key changes, and says which key is missing otherwise", () => {
    const old = encryptPan("378282246310005");
    useKeys(keyB, keyA);
    expect(decryptPan(old)).toBe("378282246310005");
    expect(encryptPan("378282246310005").keyId).not.toBe(old.keyId);
    useKeys(keyB);
    expect(() => decryptPan(old)).toThrow(CardKeyUnavailableError);
  });

  it("fingerprints the same card the same way", () => {
    expect(panFingerprint("4111111111111111")).toBe(panFingerprint("4111111111111111"));
    expect(panFingerprint("4111111111111111")).not.toBe(panFingerprint("4000000000000002"));
  });
});
