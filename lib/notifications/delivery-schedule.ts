// The delivery schedule of spec 6.2: one immediate attempt; 3 retries 3 seconds apart; 3 retries
// 1 hour apart; one last attempt 24 hours later. Per-attempt time-outs follow rule 3: 5 s for the
// immediate and the 3-second retries, 15 s for the hourly retries and the last one.

export interface DeliveryStep {
  /** 1-based attempt number, as stored on NotificationAttempt. */
  attemptNumber: number;
  /** Wait before this attempt, after the previous one ended. */
  delayMs: number;
  /** The same wait in Inngest's duration syntax. */
  delay: string;
  timeoutMs: number;
}

const SECOND = 1000;
const HOUR = 3600 * SECOND;

const plan: Array<{ delayMs: number; delay: string; timeoutMs: number }> = [
  { delayMs: 0, delay: "0s", timeoutMs: 5 * SECOND },
  { delayMs: 3 * SECOND, delay: "3s", timeoutMs: 5 * SECOND },
  { delayMs: 3 * SECOND, delay: "3s", timeoutMs: 5 * SECOND },
  { delayMs: 3 * SECOND, delay: "3s", timeoutMs: 5 * SECOND },
  { delayMs: HOUR, delay: "1h", timeoutMs: 15 * SECOND },
  { delayMs: HOUR, delay: "1h", timeoutMs: 15 * SECOND },
  { delayMs: HOUR, delay: "1h", timeoutMs: 15 * SECOND },
  { delayMs: 24 * HOUR, delay: "24h", timeoutMs: 15 * SECOND },
];

export const DELIVERY_SCHEDULE: readonly DeliveryStep[] = plan.map((step, index) => ({ attemptNumber: index + 1, ...step }));

/** The event id that starts a notification's scheduled attempt `attemptNumber` (2 to 8): the hand-over of the attempt before it (decision 0223). */
export function attemptEventId(notificationId: string, attemptNumber: number): string {
  return `notification-${notificationId}-attempt-${attemptNumber}`;
}
