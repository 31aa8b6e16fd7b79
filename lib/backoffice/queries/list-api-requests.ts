// Developers > API requests: the signed-in merchant's rows of ApiRequest (written by the merchant-API
// wrapper for every request its key authenticated), newest first, keyset-paginated by (createdAt,
// id), filtered by status class, path, error code, TraceApi and UTC days. Requests refused before
// a merchant was known (a wrong key) have no merchant and are shown to no one.
import { z } from "zod";
import { db } from "../../db";
import type { Prisma } from "../../generated/prisma/client";
import { API_ERROR_STATUS, type ApiErrorCode } from "../../errors";
import { createdAtRange, dayRangeFields, decodeCursor, NEWEST_FIRST, newestFirstPage, olderThan, optionalField, parseFilters, type NewestFirstQuery } from "../log-filters";
import { redactCardNumbers } from "../../cards/redact-card-numbers";

export const API_REQUEST_PAGE_SIZE = 50;

export const STATUS_CLASSES = ["2xx", "4xx", "5xx"] as const;
export const API_ERROR_CODES = Object.keys(API_ERROR_STATUS) as [ApiErrorCode, ...ApiErrorCode[]];

export const apiRequestFiltersSchema = z.object({
  status: optionalField(z.enum(STATUS_CLASSES, { error: "Choose 2xx, 4xx or 5xx" })),
  method: optionalField(z.enum(["GET", "POST"], { error: "Choose GET or POST" })),
  /** Part of the path, such as `/capture` or a payment id. */
  path: optionalField(z.string().trim().max(200, "Use at most 200 characters").regex(/^[\x21-\x7e]+$/, "Use the characters of a URL path")),
  errorCode: optionalField(z.enum(API_ERROR_CODES, { error: "Choose an error code from the list" })),
  /** The TraceApi header as sent (the wrapper keeps 1 to 128 printable ASCII characters). */
  traceApi: optionalField(z.string().trim().regex(/^[\x21-\x7e]{1,128}$/, "A TraceApi value is 1 to 128 printable characters")),
  ...dayRangeFields,
});

export type ApiRequestFilters = z.infer<typeof apiRequestFiltersSchema>;

export function parseApiRequestFilters(params: Record<string, string | string[] | undefined>) {
  return parseFilters(apiRequestFiltersSchema, params);
}

function statusRange(status: ApiRequestFilters["status"]): Prisma.IntFilter | undefined {
  if (!status) return undefined;
  const floor = Number(status[0]) * 100;
  return { gte: floor, lt: floor + 100 };
}

/** The requests of one mode: those its keys made. */
export async function listApiRequests({ merchantId, mode, filters = {}, after }: NewestFirstQuery<ApiRequestFilters>) {
  const where: Prisma.ApiRequestWhereInput = {
    merchantId,
    mode,
    ...(filters.status ? { statusCode: statusRange(filters.status) } : {}),
    ...(filters.method ? { method: filters.method } : {}),
    ...(filters.path ? { path: { contains: filters.path } } : {}),
    ...(filters.errorCode ? { errorCode: filters.errorCode } : {}),
    // Stored TraceApi values have card numbers masked (lib/api/merchant-route.ts): so is the search.
    ...(filters.traceApi ? { traceApi: redactCardNumbers(filters.traceApi) } : {}),
    ...(filters.from || filters.to ? { createdAt: createdAtRange(filters.from, filters.to) } : {}),
    AND: [olderThan(decodeCursor(after))],
  };
  const found = await db().apiRequest.findMany({
    where,
    orderBy: NEWEST_FIRST,
    take: API_REQUEST_PAGE_SIZE + 1,
    select: { id: true, method: true, path: true, statusCode: true, errorCode: true, traceApi: true, durationMs: true, createdAt: true, idempotentReplay: true },
  });
  return newestFirstPage(found, API_REQUEST_PAGE_SIZE);
}
