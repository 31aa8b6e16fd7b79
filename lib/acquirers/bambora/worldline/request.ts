// A Worldline Direct HTTP request, ready for the connectors' one `send()`: URL, headers (Date,
// Content-Type, the X-GCS-Idempotence-Key when given, and the v1HMAC Authorization over them) and
// the JSON body. Pure: the clock comes in, nothing goes out.
import { WORLDLINE_IDEMPOTENCE_HEADER, isWorldlineIdempotenceKey } from "./endpoints";
import { worldlineAuthorization, worldlineDate } from "./signature";

export interface WorldlineCredentials {
  /** The PSPID, which is the `{merchantId}` of every path. */
  merchantId: string;
  apiKeyId: string;
  secretApiKey: string;
}

export interface WorldlineRequestInput {
  baseUrl: string;
  credentials: Pick<WorldlineCredentials, "apiKeyId" | "secretApiKey">;
  method: "GET" | "POST";
  path: string;
  body?: unknown;
  /** Our operation id: the platform answers a repeat with the first request's outcome for 24 hours. */
  idempotenceKey?: string;
  now: Date;
}

export interface WorldlineHttpRequest {
  url: string;
  method: "GET" | "POST";
  headers: Record<string, string>;
  body?: string;
}

/** The SDKs send `application/json` and sign exactly that value. */
export const WORLDLINE_CONTENT_TYPE = "application/json";

export function worldlineRequest({
  baseUrl,
  credentials,
  method,
  path,
  body,
  idempotenceKey,
  now,
}: WorldlineRequestInput): WorldlineHttpRequest {
  if (idempotenceKey !== undefined && !isWorldlineIdempotenceKey(idempotenceKey))
    throw new Error("the idempotence key must be 1 to 40 printable ASCII characters");
  const date = worldlineDate(now);
  const headers: Record<string, string> = { Date: date, Accept: "application/json" };
  if (method === "POST") headers["Content-Type"] = WORLDLINE_CONTENT_TYPE;
  if (idempotenceKey) headers[WORLDLINE_IDEMPOTENCE_HEADER] = idempotenceKey;
  headers.Authorization = worldlineAuthorization(
    { method, contentType: headers["Content-Type"], date, headers, path },
    credentials.apiKeyId,
    credentials.secretApiKey,
  );
  return {
    url: `${baseUrl.replace(/\/+$/, "")}${path}`,
    method,
    headers,
    ...(method === "POST" ? { body: JSON.stringify(body ?? {}) } : {}),
  };
}
