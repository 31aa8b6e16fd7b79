// The demo merchant's notification receiver: what a merchant's server does with a notification,
// served by the service itself so that a fresh `npm start` has somewhere sensible to send the demo
// merchant's notifications (capture, refund, void ... of the README's commands). It verifies the
// Standard Webhooks signature with the demo merchant's secret of the notification's mode, and the
// signed body's `mode` against it, as a merchant's receiver must (security review 4, M1), and
// answers 200 (the only acknowledgement, spec 6.2); anything else, including another merchant's
// notification, is refused 401 and so retried and shown as failing in the back office. Local mode
// only: in production it answers 404, like the demo shop.
import { existsSync, readFileSync } from "node:fs";
import { Webhook } from "standardwebhooks";
import { z } from "zod";
import { config } from "../env";
import { BodyTooLargeError, readLimitedText } from "../http/read-limited-body";
import { log } from "../observability/logger";
import { demoCredentialsFile } from "./seed-demo";
import { activeSigningSecrets } from "../notifications/signing-secrets";
import type { Mode } from "../mode";

/** A notification body is a small JSON object; the receiver reads no more than this. */
const MAX_BODY_BYTES = 64 * 1024;

const demoFileSchema = z.object({ merchantId: z.string() });

function answer(status: number, body: Record<string, unknown>): Response {
  return new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json", "cache-control": "no-store" } });
}

/** The demo merchant's valid signing secrets of each mode (more than one during a roll's overlap); null without a demo merchant. */
async function demoSecrets(): Promise<Record<Mode, string[]> | null> {
  const file = demoCredentialsFile();
  if (!existsSync(file)) return null;
  const saved = demoFileSchema.safeParse(JSON.parse(readFileSync(file, "utf8")));
  if (!saved.success) return null;
  const of = async (mode: Mode) => (await activeSigningSecrets({ merchantId: saved.data.merchantId, mode })).map((entry) => entry.secret);
  return { test: await of("test"), live: await of("live") };
}

/** The body's `mode` (signed), or undefined when it is not a JSON object with one. */
function signedMode(body: string): unknown {
  try {
    return (JSON.parse(body) as { mode?: unknown } | null)?.mode;
  } catch {
    return undefined;
  }
}

export async function receiveDemoNotification(request: Request): Promise<Response> {
  if (config().isProduction) return new Response("Not found", { status: 404 });
  // Read with a cap (a declared length over it unread, a chunked body to the cap only): the
  // receiver answers anyone who can reach the service.
  let body: string;
  try {
    body = await readLimitedText(request, MAX_BODY_BYTES);
  } catch (error) {
    if (error instanceof BodyTooLargeError) return answer(413, { received: false, reason: "body too large" });
    return answer(400, { received: false, reason: "body could not be read" });
  }
  const secrets = await demoSecrets();
  if (!secrets) return answer(503, { received: false, reason: "no demo merchant" });
  const headers = {
    "webhook-id": request.headers.get("webhook-id") ?? "",
    "webhook-timestamp": request.headers.get("webhook-timestamp") ?? "",
    "webhook-signature": request.headers.get("webhook-signature") ?? "",
  };
  // As a merchant's receiver after a roll: any of a mode's secrets that verifies will do, and then the
  // signed body must say that mode.
  const verifiedMode = (["test", "live"] as const).find((mode) =>
    secrets[mode].some((secret) => {
      try {
        new Webhook(secret).verify(body, headers);
        return true;
      } catch {
        return false;
      }
    }),
  );
  if (!verifiedMode) return answer(401, { received: false, reason: "signature does not verify with the demo merchant's secret" });
  if (signedMode(body) !== verifiedMode) return answer(401, { received: false, reason: `signed with the ${verifiedMode} secret but not a ${verifiedMode} notification` });
  const kind = request.headers.get("x-cps-notification-kind") ?? "unknown";
  log("demo-receiver").info(`demo merchant notification ${request.headers.get("webhook-id")} (${kind}) verified`);
  return answer(200, { received: true, kind });
}
