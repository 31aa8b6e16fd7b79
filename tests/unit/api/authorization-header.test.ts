import { describe, expect, it } from "vitest";
import { apiKeyFromAuthorization } from "@/lib/api/authenticate-api-key";
import { parseIdempotencyKey, requestFingerprint } from "@/lib/api/idempotency";
import { toJson } from "@/lib/api/merchant-route";

const key = "cps_0123456789abcdefghijABCDEFGHIJ0123456789";

describe("Authorization header", () => {
  it("reads the key after Basic, or from base64 credentials as curl -u sends them", () => {
    expect(apiKeyFromAuthorization(`Basic ${key}`)).toBe(key);
    expect(apiKeyFromAuthorization(`basic   ${key}`)).toBe(key);
    expect(apiKeyFromAuthorization(`Basic ${Buffer.from(`${key}:`).toString("base64")}`)).toBe(key);
    expect(apiKeyFromAuthorization(`Basic ${Buffer.from(`:${key}`).toString("base64")}`)).toBe(key);
  });

  it("finds no key in missing, empty, other-scheme or oversized headers", () => {
    for (const header of [null, "", "Basic", "Basic ", `Bearer ${key}`, key, `Basic ${"a".repeat(201)}`, "Basic Zm9vOmJhcg=="]) {
      expect(apiKeyFromAuthorization(header), String(header)).toBeUndefined();
    }
  });
});

describe("Idempotency-Key", () => {
  it("accepts 1 to 255 visible ASCII characters", () => {
    expect(parseIdempotencyKey(null)).toBeUndefined();
    expect(parseIdempotencyKey("order-42/capture#1")).toBe("order-42/capture#1");
    expect(() => parseIdempotencyKey("")).toThrow(/Idempotency-Key/);
    expect(() => parseIdempotencyKey("a b")).toThrow(/Idempotency-Key/);
    expect(() => parseIdempotencyKey("x".repeat(256))).toThrow(/Idempotency-Key/);
  });

  it("fingerprints method, path and parameters", () => {
    const base = requestFingerprint("POST", "/api/p1/capture", { amount: 1 });
    expect(requestFingerprint("POST", "/api/p1/capture", { amount: 1 })).toBe(base);
    expect(requestFingerprint("POST", "/api/p1/capture", { amount: 2 })).not.toBe(base);
    expect(requestFingerprint("POST", "/api/p1/refund", { amount: 1 })).not.toBe(base);
    expect(requestFingerprint("POST", "/api/p1/capture", { note: "a", amount: 1 })).toBe(
      requestFingerprint("POST", "/api/p1/capture", { amount: 1, note: "a" }),
    );
  });
});

describe("JSON answers", () => {
  it("writes BigInt money as JSON numbers", () => {
    expect(toJson({ amount: 250n, nested: [1n] })).toBe('{"amount":250,"nested":[1]}');
  });
});
