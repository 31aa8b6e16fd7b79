// Worldline Direct's v1HMAC request signature, as the official server SDKs compute it
// (wl-online-payments-direct/sdk-java V1HmacAuthenticator, sdk-nodejs src/utils/authentication.ts;
// docs.direct.worldline-solutions.com "Manual authentication"): HMAC-SHA256 with the secret API key
// over
//   METHOD \n Content-Type \n Date \n <x-gcs-* headers, lower-cased, sorted, "name:value\n" each> <path[?query]> \n
// base64, sent as `Authorization: GCS v1HMAC:<apiKeyId>:<signature>`. The body is not signed: its
// integrity rests on TLS. Pure: the caller gives the Date it sends (the platform rejects a missing
// or wrong one), so tests reproduce the SDKs' published vectors byte for byte.
import { createHmac } from "node:crypto";

export interface WorldlineSigningInput {
  method: "GET" | "POST" | "PUT" | "DELETE";
  /** The Content-Type header exactly as sent; a GET sends none and signs an empty line. */
  contentType?: string;
  /** The Date header exactly as sent (RFC 1123, GMT). */
  date: string;
  /** Every header sent; only the X-GCS-* ones are signed. */
  headers?: Readonly<Record<string, string>>;
  /** The request's path with its query string, e.g. `/v2/PSPID/payments`. */
  path: string;
}

/** The SDKs' canonical header value: line breaks and the blanks after them become one space, then trimmed. */
export function canonicalHeaderValue(value: string): string {
  return value.replace(/\r?\n[^\S\r\n]*/g, " ").trim();
}

/**
 * The signed resource: the path, and "?" with the decoded query when there is one (the Java SDK
 * signs `URI.getPath()` and `URI.getQuery()`, both decoded: `/v2/services bla/testconnection?aap=noot&mies=geen noot`).
 */
export function canonicalResource(pathWithQuery: string): string {
  const mark = pathWithQuery.indexOf("?");
  const decode = (text: string) => decodeURIComponent(text);
  if (mark < 0) return decode(pathWithQuery);
  return `${decode(pathWithQuery.slice(0, mark))}?${decode(pathWithQuery.slice(mark + 1))}`;
}

/** The string the HMAC is computed over. */
export function worldlineStringToSign({ method, contentType, date, headers = {}, path }: WorldlineSigningInput): string {
  const gcs = Object.entries(headers)
    .map(([name, value]) => [name.toLowerCase(), canonicalHeaderValue(value)] as const)
    .filter(([name]) => name.startsWith("x-gcs"))
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([name, value]) => `${name}:${value}\n`)
    .join("");
  // The SDKs sign the Content-Type of POST, PUT and DELETE only: a GET carries no body.
  const signedType = method === "GET" ? "" : (contentType ?? "");
  return `${method}\n${signedType}\n${date}\n${gcs}${canonicalResource(path)}\n`;
}

export function worldlineSignature(input: WorldlineSigningInput, secretApiKey: string): string {
  return createHmac("sha256", secretApiKey).update(worldlineStringToSign(input), "utf8").digest("base64");
}

/** The Authorization header value. */
export function worldlineAuthorization(input: WorldlineSigningInput, apiKeyId: string, secretApiKey: string): string {
  return `GCS v1HMAC:${apiKeyId}:${worldlineSignature(input, secretApiKey)}`;
}

/** The Date header the SDKs send: RFC 1123 in GMT ("Fri, 06 Jun 2014 13:39:43 GMT"). */
export function worldlineDate(now: Date): string {
  return now.toUTCString();
}
