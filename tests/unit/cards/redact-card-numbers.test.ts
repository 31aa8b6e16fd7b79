// The masker redacts card numbers (Luhn-valid runs of 12-19 digits that start as a scheme's cards do),
// grouped or glued to text, and keeps every other number readable: order ids, timestamps, migration
// names, the merchant's id and the service's own ids.
import { describe, expect, it } from "vitest";
import { isCardNumber, redactCardNumbers } from "@/lib/cards/redact-card-numbers";
import { isLuhnValid } from "@/lib/cards/luhn";
import { newId } from "@/lib/ids";

/** Real PAN shapes of the schemes the service takes and of others a log could see. */
const PANS = [
  "4111111111111111", // visa 16
  "4222222222222", // visa 13
  "4539578763621486",
  "4000000000001000",
  "5555555555554444", // mastercard 51-55
  "2221000000000009", // mastercard 2-series
  "2720990000000007",
  "378282246310005", // amex 15
  "371449635398431",
  "30569309025904", // diners 14
  "6011000990139424", // discover
  "3530111333300000", // jcb
  "6759649826438453", // maestro
  "6304000000000000", // maestro (12-19 digits)
  "6011000990139424124", // 19 digits
  "4111111111119", // a 13-digit visa
  "501800000009", // a 12-digit maestro
];

describe("redactCardNumbers", () => {
  it("the PAN shapes above are card numbers (the fixture itself is right)", () => {
    for (const pan of PANS) {
      expect(isLuhnValid(pan), pan).toBe(true);
      expect(isCardNumber(pan), pan).toBe(true);
    }
  });

  it("redacts every real PAN shape, alone, glued to text, grouped with spaces or dashes", () => {
    for (const pan of PANS) {
      expect(redactCardNumbers(`card ${pan} declined`), pan).toBe("card [redacted digits] declined");
      expect(redactCardNumbers(`x${pan}y`), pan).toBe("x[redacted digits]y");
      const grouped = pan.match(/.{1,4}/g)!;
      expect(redactCardNumbers(`pan ${grouped.join(" ")}.`), pan).toBe("pan [redacted digits].");
      expect(redactCardNumbers(`pan=${grouped.join("-")}&cvc=123`), pan).toBe("pan=[redacted digits]&cvc=123");
    }
    expect(redactCardNumbers("/api/4111111111111111/void")).toBe("/api/[redacted digits]/void");
  });

  it("redacts a card number with more digits glued on: two PANs, a PAN with its security code", () => {
    expect(redactCardNumbers("41111111111111114111111111111111")).toBe("[redacted digits]");
    expect(redactCardNumbers("card 4111 1111 1111 1111 123")).toBe("card [redacted digits]");
    expect(redactCardNumbers("ref 99 4539 5787 6362 1486")).toBe("ref [redacted digits]");
    expect(redactCardNumbers("000045395787636214860000")).toBe("[redacted digits]");
  });

  it("keeps order ids readable (the typed client's, date-based ones, the README's)", () => {
    for (const text of [
      "POST /api/cl1795853171805/void",
      "order20261128001",
      "order1001",
      "/api/order-2026-11-28-0001/capture",
      "inv-2026-0042",
      "POST /api/1795853171805123/capture",
    ]) {
      expect(redactCardNumbers(text), text).toBe(text);
    }
  });

  it("keeps timestamps and dates readable (epoch seconds and milliseconds, ISO, compact)", () => {
    for (const text of [
      "webhook-timestamp: 1767225600",
      "at 1767225600123 ms",
      "1795853171805",
      "2026-11-28 10:00:00",
      "2026-11-28T10:00:00.123Z",
      "20261128100000",
      "took 123456789012345 ns",
    ]) {
      expect(redactCardNumbers(text), text).toBe(text);
    }
  });

  it("keeps migration names readable, every one of this repository's", async () => {
    const { readdirSync } = await import("node:fs");
    const names = readdirSync("prisma/migrations").filter((name) => /^\d/.test(name));
    expect(names.length).toBeGreaterThan(10);
    for (const name of names) expect(redactCardNumbers(`applied ${name}`)).toBe(`applied ${name}`);
    expect(redactCardNumbers("applied 20250101120000_init")).toBe("applied 20250101120000_init");
  });

  it("keeps merchant ids (12 digits from 1) and the service's ids, also those holding long digit runs", () => {
    expect(redactCardNumbers("merchant 176421174824")).toBe("merchant 176421174824");
    expect(redactCardNumbers("capture 5219abfb5cad45dc1234567890af1067 of payment x")).toBe("capture 5219abfb5cad45dc1234567890af1067 of payment x");
    for (let index = 0; index < 2_000; index++) {
      const id = newId();
      expect(redactCardNumbers(`operation ${id} needs an operator`)).toBe(`operation ${id} needs an operator`);
    }
  });

  it("keeps a Luhn-invalid number of card length and a number of no scheme", () => {
    expect(redactCardNumbers("4111111111111112")).toBe("4111111111111112");
    // Luhn-valid, but no scheme's cards start with 1, 7, 8, 9 or 20.
    for (const digits of ["1000000000000008", "7000000000000005", "2000000000000006"]) {
      expect(isLuhnValid(digits)).toBe(true);
      expect(redactCardNumbers(digits)).toBe(digits);
    }
  });
});
