// The merchant's three notification addresses as the back office's forms name them: plain data, so
// that client components may import it (notification-url.ts holds the server-side check).
export const NOTIFICATION_URL_FIELDS = ["defaultNotificationUrl", "completionNotificationUrl", "lifecycleNotificationUrl"] as const;
export type NotificationUrlField = (typeof NOTIFICATION_URL_FIELDS)[number];

export const NOTIFICATION_URL_LABELS: Record<NotificationUrlField, { label: string; hint: string }> = {
  defaultNotificationUrl: {
    label: "Default notification URL",
    hint: "Receives the results of MIT authorizations, captures, refunds, voids and payment lookups, unless a request names its own notificationurl.",
  },
  completionNotificationUrl: {
    label: "Payment completion URL",
    hint: "Receives the completion notification of cardholder payments (approved or timeout). Falls back to the default URL.",
  },
  lifecycleNotificationUrl: {
    label: "Life-cycle URL",
    hint: "Receives life-cycle notifications when an issuer updates a stored card. Falls back to the default URL.",
  },
};
