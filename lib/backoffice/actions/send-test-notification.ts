// "Send test notification": one signed POST to a notification address, answered on the spot with
// what the receiver said. It uses the notification code of every real notification (stored row,
// Standard Webhooks signature, one delivery attempt) but is never retried: the person pressing
// the button is waiting for the answer.
import { z } from "zod";
import { assertCan, type Actor } from "../../auth/actor";
import { db } from "../../db";
import { config } from "../../env";
import { enqueueNotification } from "../../notifications/enqueue-notification";
import { deliverNotificationAttempt } from "../../notifications/deliver-notification-attempt";
import { formatUtcTimestamp } from "../../notifications/format";
import { recordAudit } from "../../audit/audit";
import { notificationUrlSchema } from "../notification-url";

const TEST_TIMEOUT_MS = 10_000;

export interface TestNotificationResult {
  notificationId: string;
  url: string;
  delivered: boolean;
  statusCode: number | null;
  error: string | null;
  durationMs: number;
  responseBody: string | null;
  body: string;
}

export async function sendTestNotification({ actor, input }: { actor: Actor; input: unknown }): Promise<TestNotificationResult> {
  assertCan(actor, "settings:write");
  const parsed = z.object({ url: notificationUrlSchema({ allowHttp: !config().isProduction }) }).parse(input);
  if (!parsed.url) throw new z.ZodError([{ code: "custom", path: ["url"], message: "Enter an address to send the test to", input: "" }]);
  const url = parsed.url;
  const body = { type: "test", merchantid: actor.merchantId, message: "Test notification from the back office", created: formatUtcTimestamp(new Date()) };
  // Of the mode the back office shows: it is listed with that mode's notifications, and says its mode.
  const notificationId = await enqueueNotification({ merchantId: actor.merchantId, mode: actor.mode, kind: "test", url, body });
  const outcome = await deliverNotificationAttempt({ notificationId, attemptNumber: 1, timeoutMs: TEST_TIMEOUT_MS });
  const [attempt] = await db().$transaction(async (tx) => {
    // Not retried: settle it now so it never waits in the retry queue.
    await tx.notification.update({ where: { id: notificationId }, data: { status: outcome.delivered ? "delivered" : "failed", nextAttemptAt: null }, select: { id: true } });
    await recordAudit(tx, { actor, action: "notification.test_sent", target: notificationId, details: { url, statusCode: outcome.statusCode, delivered: outcome.delivered } });
    return tx.notificationAttempt.findMany({ where: { notificationId }, select: { responseBody: true }, take: 1 });
  });
  return { notificationId, url, ...outcome, responseBody: attempt?.responseBody ?? null, body: JSON.stringify({ ...body, mode: actor.mode }) };
}
