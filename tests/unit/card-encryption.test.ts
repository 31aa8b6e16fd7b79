import { describe, expect, it } from "vitest";
import { CardKeyUnavailableError, decryptPan, encryptPan, panFingerprint } from "@/lib/cards/card-encryption";
import { newCardKey, useCardKeys, useCardKeysPerTest } from "@/tests/helpers/card-keys";

const keyA = newCardKey();
const keyB = newCardKey();

describe("card encryption", () => {
  useCardKeysPerTest(keyA);

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
    useCardKeys(keyB, keyA);
    expect(decryptPan(old)).toBe("378282246310005");
    expect(encryptPan("378282246310005").keyId).not.toBe(old.keyId);
    useCardKeys(keyB);
    expect(() => decryptPan(old)).toThrow(CardKeyUnavailableError);
  });

  it("fingerprints the same card the same way", () => {
    expect(panFingerprint("4111111111111111")).toBe(panFingerprint("4111111111111111"));
    expect(panFingerprint("4111111111111111")).not.toBe(panFingerprint("4000000000000002"));
  });
});
