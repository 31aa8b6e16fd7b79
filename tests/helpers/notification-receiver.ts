// A merchant's notification endpoint on 127.0.0.1: records every POST (raw body, headers, time) and
// answers what the test scripts (a status code, or a delay to provoke the sender's time-out).
import http from "node:http";
import type { AddressInfo } from "node:net";
import { assertNotificationMatchesOpenApi } from "./openapi-contract";

export interface ReceivedNotification {
  path: string;
  headers: http.IncomingHttpHeaders;
  rawBody: string;
  body: Record<string, unknown>;
  receivedAt: number;
}

export interface ScriptedAnswer {
  status?: number;
  /** Wait this long before answering. */
  delayMs?: number;
}

export interface NotificationReceiver {
  url: string;
  received: ReceivedNotification[];
  /** Answers for the next requests, in order; afterwards `defaultAnswer`. */
  script(...answers: ScriptedAnswer[]): void;
  defaultAnswer: ScriptedAnswer;
  waitFor(count: number, timeoutMs?: number): Promise<ReceivedNotification[]>;
  close(): Promise<void>;
}

/** The webhook named by the notification's kind header, when it has one (completion → completionNotification). */
function notificationKind(headers: http.IncomingHttpHeaders): string | undefined {
  const kind = headers["x-cps-notification-kind"];
  if (typeof kind !== "string") return undefined;
  return { "payment-details": "paymentDetails", capture: "operation", refund: "operation", void: "operation", payout: "operation" }[kind] ?? kind;
}

export async function startNotificationReceiver(): Promise<NotificationReceiver> {
  const received: ReceivedNotification[] = [];
  const queue: ScriptedAnswer[] = [];
  const waiters: Array<() => void> = [];
  const receiver: Partial<NotificationReceiver> = { received, defaultAnswer: { status: 200 } };
  const server = http.createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const rawBody = Buffer.concat(chunks).toString("utf8");
    let body: Record<string, unknown> = {};
    try {
      body = JSON.parse(rawBody) as Record<string, unknown>;
    } catch {
      body = {};
    }
    received.push({ path: req.url ?? "/", headers: req.headers, rawBody, body, receivedAt: Date.now() });
    waiters.splice(0).forEach((wake) => wake());
    const answer = queue.shift() ?? receiver.defaultAnswer ?? { status: 200 };
    if (answer.delayMs) await new Promise((resolve) => setTimeout(resolve, answer.delayMs));
    if (!res.destroyed) res.writeHead(answer.status ?? 200, { "content-type": "text/plain" }).end("ok");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return Object.assign(receiver, {
    url: `http://127.0.0.1:${port}/notify`,
    script: (...answers: ScriptedAnswer[]) => void queue.push(...answers),
    async waitFor(count: number, timeoutMs = 10_000) {
      const deadline = Date.now() + timeoutMs;
      while (received.length < count) {
        const left = deadline - Date.now();
        if (left <= 0) throw new Error(`expected ${count} notifications, received ${received.length}`);
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, left);
          waiters.push(() => {
            clearTimeout(timer);
            resolve();
          });
        });
      }
      const first = received.slice(0, count);
      // Every notification a test waits for is checked against the OpenAPI document's webhooks.
      for (const notification of first) assertNotificationMatchesOpenApi(notification.body, notificationKind(notification.headers));
      return first;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  }) as NotificationReceiver;
}
