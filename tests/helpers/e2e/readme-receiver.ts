// What the README specs share: a local receiver standing in for the README's NOTIFY_URL, the
// README's four variables, and a wait for one notification.
import { test } from "@playwright/test";
import { eventually } from "../eventually";
import { startNotificationReceiver, type NotificationReceiver, type ReceivedNotification } from "../notification-receiver";
import { E2E, demoCredentials, withServiceDatabase } from "./demo-service";

export interface ReadmeReceiver {
  /** The receiver; set in beforeAll. */
  readonly current: () => NotificationReceiver;
  /** BASE, KEY, MID and NOTIFY_URL, the README's variables, and nothing else. */
  readonly environment: () => Record<string, string>;
}

/**
 * Registers the spec's beforeAll/afterAll: a receiver, and the demo merchant's configured addresses
 * (both modes) cleared. Follow-ups without a notificationurl go to the merchant's configured address
 * before the payment's own: on a fresh install the demo merchant's is the service's demo receiver
 * (tests/e2e/backoffice/developers.spec.ts), and the suite's shared service may have one from the
 * back-office tests. Cleared, the README's NOTIFY_URL receives them, as for a merchant with no
 * address configured.
 */
export function useReadmeReceiver(): ReadmeReceiver {
  let receiver: NotificationReceiver | undefined;
  test.beforeAll(async () => {
    receiver = await startNotificationReceiver();
    await withServiceDatabase((client) =>
      client.query(
        // Both modes' addresses: the demo key is a test-mode key (issue 27), whose addresses are the test ones.
        `UPDATE "Merchant" SET "defaultNotificationUrl" = NULL, "completionNotificationUrl" = NULL, "lifecycleNotificationUrl" = NULL,
           "testDefaultNotificationUrl" = NULL, "testCompletionNotificationUrl" = NULL, "testLifecycleNotificationUrl" = NULL WHERE "id" = $1`,
        [demoCredentials().merchantId],
      ),
    );
  });
  test.afterAll(async () => {
    await receiver?.close();
  });
  const current = () => {
    if (!receiver) throw new Error("the README receiver is used before beforeAll");
    return receiver;
  };
  return {
    current,
    environment: () => {
      const demo = demoCredentials();
      return { BASE: E2E.baseURL, KEY: demo.apiKey, MID: demo.merchantId, NOTIFY_URL: current().url };
    },
  };
}

/** The first notification the receiver has, or gets within 30 s, that matches. */
export async function notified(receiver: NotificationReceiver, predicate: (n: ReceivedNotification) => boolean, what: string): Promise<ReceivedNotification> {
  return eventually(() => receiver.received.find(predicate), {
    what: () => `a ${what} notification; received: ${receiver.received.map((n) => n.rawBody).join("\n")}`,
    timeoutMs: 30_000,
    intervalMs: 200,
  });
}
