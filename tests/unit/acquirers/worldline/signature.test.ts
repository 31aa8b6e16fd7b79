// The v1HMAC signer against the official SDKs' own vectors (tests/fixtures/acquirers/bambora-worldline/
// signature-vectors.json names each SDK file): our signature and the sandbox's check must both be
// Worldline's byte for byte, or the real platform refuses every request.
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import {
  canonicalHeaderValue,
  worldlineAuthorization,
  worldlineDate,
  worldlineSignature,
  worldlineStringToSign,
} from "@/lib/acquirers/bambora/worldline/signature";
import { worldlineRequest } from "@/lib/acquirers/bambora/worldline/request";
import { dataToSign, v1HmacSignature } from "@/lib/sandboxes/acquirers/bambora/worldline/v1hmac";

interface Vector {
  name: string;
  apiKeyId: string;
  secretApiKey: string;
  method: "GET" | "POST" | "DELETE";
  contentType: string;
  date: string;
  headers: Record<string, string>;
  path: string;
  signature?: string;
  authorization?: string;
}

const fixture = JSON.parse(
  readFileSync(path.join(__dirname, "../../../fixtures/acquirers/bambora-worldline/signature-vectors.json"), "utf8"),
) as {
  vectors: Vector[];
  stringToSign: [
    {
      method: "POST";
      contentType: string;
      date: string;
      headers: Record<string, string>;
      path: string;
      expectedStart: string;
      expectedEnd: string;
    },
    { values: [string, string][] },
  ];
};

describe("Worldline v1HMAC (the SDKs' vectors)", () => {
  for (const vector of fixture.vectors) {
    it(`signs as the SDK does: ${vector.name}`, () => {
      const input = {
        method: vector.method,
        contentType: vector.contentType,
        date: vector.date,
        headers: vector.headers,
        path: vector.path,
      };
      if (vector.signature) expect(worldlineSignature(input, vector.secretApiKey)).toBe(vector.signature);
      if (vector.authorization) expect(worldlineAuthorization(input, vector.apiKeyId, vector.secretApiKey)).toBe(vector.authorization);
    });

    it(`the sandbox recomputes the same signature: ${vector.name}`, () => {
      const expected = vector.signature ?? vector.authorization!.split(":").at(-1);
      const headers = new Headers(vector.headers);
      expect(
        v1HmacSignature(
          { method: vector.method, contentType: vector.contentType || null, date: vector.date, headers, pathAndQuery: vector.path },
          vector.secretApiKey,
        ),
      ).toBe(expected);
    });
  }

  it("builds the string to sign of the Java SDK: decoded path and query, X-GCS headers lower-cased and sorted, other headers left out", () => {
    const [vector] = fixture.stringToSign;
    const ours = worldlineStringToSign({
      method: vector.method,
      contentType: vector.contentType,
      date: vector.date,
      headers: vector.headers,
      path: vector.path,
    });
    expect(ours.startsWith(vector.expectedStart)).toBe(true);
    expect(ours.endsWith(vector.expectedEnd)).toBe(true);
    expect(ours).toBe(`${vector.expectedStart}${vector.date}\n${vector.expectedEnd}`);
    const sandbox = dataToSign({
      method: vector.method,
      contentType: vector.contentType,
      date: vector.date,
      headers: new Headers(vector.headers),
      pathAndQuery: vector.path,
    });
    expect(sandbox).toBe(ours);
  });

  it("canonicalises header values as the SDKs do", () => {
    for (const [value, expected] of fixture.stringToSign[1].values) expect(canonicalHeaderValue(value)).toBe(expected);
  });

  it("a changed secret, method, path, date or idempotence key gives another signature", () => {
    const base = {
      method: "POST" as const,
      contentType: "application/json",
      date: "Fri, 06 Jun 2014 13:39:43 GMT",
      path: "/v2/PSPID/payments",
    };
    const signature = worldlineSignature(base, "secret");
    expect(worldlineSignature(base, "secret2")).not.toBe(signature);
    expect(worldlineSignature({ ...base, path: "/v2/OTHER/payments" }, "secret")).not.toBe(signature);
    expect(worldlineSignature({ ...base, date: "Fri, 06 Jun 2014 13:39:44 GMT" }, "secret")).not.toBe(signature);
    expect(worldlineSignature({ ...base, headers: { "X-GCS-Idempotence-Key": "a" } }, "secret")).not.toBe(signature);
    // Headers that are not X-GCS-* are not signed.
    expect(worldlineSignature({ ...base, headers: { "User-Agent": "x" } }, "secret")).toBe(signature);
  });

  it("sends an RFC 1123 Date, the JSON content type and the idempotence key, all signed", () => {
    const now = new Date(Date.UTC(2014, 5, 6, 13, 39, 43));
    expect(worldlineDate(now)).toBe("Fri, 06 Jun 2014 13:39:43 GMT");
    const request = worldlineRequest({
      baseUrl: "https://payment.preprod.direct.worldline-solutions.com/",
      credentials: { apiKeyId: "KEY", secretApiKey: "secret" },
      method: "POST",
      path: "/v2/PSPID/payments",
      body: { a: 1 },
      idempotenceKey: "0123456789abcdef0123456789abcdef",
      now,
    });
    expect(request.url).toBe("https://payment.preprod.direct.worldline-solutions.com/v2/PSPID/payments");
    expect(request.headers).toMatchObject({
      Date: "Fri, 06 Jun 2014 13:39:43 GMT",
      "Content-Type": "application/json",
      "X-GCS-Idempotence-Key": "0123456789abcdef0123456789abcdef",
    });
    expect(request.headers.Authorization).toBe(
      worldlineAuthorization(
        {
          method: "POST",
          contentType: "application/json",
          date: "Fri, 06 Jun 2014 13:39:43 GMT",
          headers: { "X-GCS-Idempotence-Key": "0123456789abcdef0123456789abcdef" },
          path: "/v2/PSPID/payments",
        },
        "KEY",
        "secret",
      ),
    );
    expect(request.body).toBe('{"a":1}');
    expect(() =>
      worldlineRequest({
        ...{ baseUrl: "https://x", credentials: { apiKeyId: "K", secretApiKey: "s" }, method: "GET", path: "/", now },
        idempotenceKey: "x".repeat(41),
      }),
    ).toThrow(/40/);
  });
});
