// Developers > API requests > one request: its trace row (with the error description, both bodies
// as masked when stored, the key that made it and whether it was an idempotent replay), and the
// notifications that report its outcome (an asynchronous operation's notification carries the
// responseid of the answer). Only the signed-in merchant's rows: another merchant's id is "not found".
import type { Mode } from "../../mode";
import { NotFoundError } from "../../auth/actor";
import { db } from "../../db";

/** The `responseid` the client received in the answer's body, if it had one (a refusal has none). */
export function answeredResponseId(responseBody: string | null): string | null {
  if (!responseBody) return null;
  try {
    const parsed = JSON.parse(responseBody) as unknown;
    const value = parsed && typeof parsed === "object" ? (parsed as Record<string, unknown>).responseid : undefined;
    return typeof value === "string" ? value : null;
  } catch {
    return null;
  }
}

export async function getApiRequestOrThrow({ merchantId, mode, requestId }: { merchantId: string; mode: Mode; requestId: string }) {
  if (!/^[A-Za-z0-9_-]{1,64}$/.test(requestId)) throw new NotFoundError("API request");
  const request = await db().apiRequest.findFirst({
    where: { id: requestId, merchantId, mode },
    select: {
      id: true,
      method: true,
      path: true,
      statusCode: true,
      errorCode: true,
      errorDescription: true,
      traceApi: true,
      durationMs: true,
      createdAt: true,
      requestBody: true,
      responseBody: true,
      apiKeyId: true,
      idempotencyKey: true,
      idempotentReplay: true,
    },
  });
  if (!request) throw new NotFoundError("API request");
  const responseId = answeredResponseId(request.responseBody);
  const [apiKey, notifications] = await Promise.all([
    request.apiKeyId ? db().apiKey.findFirst({ where: { id: request.apiKeyId, merchantId }, select: { name: true, prefix: true, revokedAt: true } }) : null,
    // The body is the exact JSON text sent; the responseid appears in it as `"responseid":"<id>"`.
    // A replay's answer carries the first request's responseid: its notifications are that one's.
    db().notification.findMany({
      where: { merchantId, mode, body: { contains: `"responseid":"${responseId ?? request.id}"` } },
      orderBy: [{ createdAt: "asc" }, { id: "asc" }],
      take: 20,
      select: { id: true, kind: true, status: true, attemptCount: true, paymentId: true, createdAt: true },
    }),
  ]);
  return { request, responseId, apiKey, notifications };
}
