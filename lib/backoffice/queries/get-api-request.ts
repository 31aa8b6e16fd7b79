// Developers > API requests > one request: its trace row, and the notifications that report its
// outcome (an asynchronous operation's notification carries the request's responseid, which is the
// row's id). Only the signed-in merchant's rows: another merchant's id is "not found".
import { NotFoundError } from "../../auth/actor";
import { db } from "../../db";

export async function getApiRequestOrThrow({ merchantId, requestId }: { merchantId: string; requestId: string }) {
  if (!/^[A-Za-z0-9_-]{1,64}$/.test(requestId)) throw new NotFoundError("API request");
  const request = await db().apiRequest.findFirst({
    where: { id: requestId, merchantId },
    select: { id: true, method: true, path: true, statusCode: true, errorCode: true, traceApi: true, durationMs: true, createdAt: true },
  });
  if (!request) throw new NotFoundError("API request");
  // The body is the exact JSON text sent; the responseid appears in it as `"responseid":"<id>"`.
  const notifications = await db().notification.findMany({
    where: { merchantId, body: { contains: `"responseid":"${request.id}"` } },
    orderBy: [{ createdAt: "asc" }, { id: "asc" }],
    take: 20,
    select: { id: true, kind: true, status: true, attemptCount: true, paymentId: true, createdAt: true },
  });
  return { request, notifications };
}
