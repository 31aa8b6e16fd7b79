// The sandbox's side of Worldline's v1HMAC: the platform "recalculates this very signature" from the
// request it received (docs.direct "Manual authentication") and compares. Written from the official
// SDKs' authenticators ([SDK-JAVA] V1HmacAuthenticator.toDataToSign, [SDK-NODE] authentication.ts),
// not from our connector: METHOD, Content-Type as received (none for a GET), Date, the X-GCS-* headers
// lower-cased and sorted as "name:value", the decoded path and query; each followed by a line feed.
import { createHmac } from "node:crypto";

export interface ReceivedRequestParts {
  method: string;
  /** Content-Type as received, or null. */
  contentType: string | null;
  date: string;
  headers: Headers;
  /** The URL's raw path and query, as on the request line. */
  pathAndQuery: string;
}

function canonicalValue(value: string): string {
  return value.replace(/\r?\n[^\S\r\n]*/g, " ").trim();
}

export function dataToSign({ method, contentType, date, headers, pathAndQuery }: ReceivedRequestParts): string {
  const gcs: [string, string][] = [];
  headers.forEach((value, name) => {
    if (name.toLowerCase().startsWith("x-gcs")) gcs.push([name.toLowerCase(), canonicalValue(value)]);
  });
  gcs.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  const mark = pathAndQuery.indexOf("?");
  let resource: string;
  try {
    resource =
      mark < 0
        ? decodeURIComponent(pathAndQuery)
        : `${decodeURIComponent(pathAndQuery.slice(0, mark))}?${decodeURIComponent(pathAndQuery.slice(mark + 1))}`;
  } catch {
    resource = pathAndQuery;
  }
  return `${method.toUpperCase()}\n${contentType ?? ""}\n${date}\n${gcs.map(([name, value]) => `${name}:${value}\n`).join("")}${resource}\n`;
}

export function v1HmacSignature(parts: ReceivedRequestParts, secretApiKey: string): string {
  return createHmac("sha256", secretApiKey).update(dataToSign(parts), "utf8").digest("base64");
}

/** `GCS v1HMAC:<apiKeyId>:<signature>`, or null when the header is not of that form. */
export function parseV1HmacAuthorization(header: string | null): { apiKeyId: string; signature: string } | null {
  const match = /^GCS v1HMAC:([^:\s]+):([A-Za-z0-9+/]+={0,2})$/.exec(header ?? "");
  return match ? { apiKeyId: match[1]!, signature: match[2]! } : null;
}
