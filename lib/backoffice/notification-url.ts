// A merchant notification address: absolute http(s), no credentials in it, and https unless the
// service runs locally (sandboxes and tests post to 127.0.0.1).
import { z } from "zod";
import { checkMerchantUrl } from "../egress/check-merchant-url";

function parseUrl(value: string): URL | null {
  try {
    return new URL(value);
  } catch {
    return null;
  }
}

export function notificationUrlSchema(options: { allowHttp: boolean }) {
  return z
    .string()
    .trim()
    .max(2000, "Use at most 2000 characters")
    .transform((value) => (value === "" ? null : value))
    .pipe(
      z
        .url({ error: "Enter a full address such as https://shop.example/notifications" })
        .refine((value) => {
          const url = parseUrl(value);
          return !url || url.protocol === "https:" || (options.allowHttp && url.protocol === "http:");
        }, options.allowHttp ? "Use an http:// or https:// address" : "Use an https:// address")
        .refine((value) => {
          const url = parseUrl(value);
          return !url || (!url.username && !url.password);
        }, "Leave user name and password out of the address; notifications are signed instead")
        .superRefine((value, context) => {
          // The same egress rules as the API's notificationurl (lib/egress): no loopback outside local
          // mode, no private, link-local or mapped addresses unless the operator allows the network.
          const refused = checkMerchantUrl(value);
          if (refused) context.addIssue({ code: "custom", message: `This address is not allowed: it ${refused}` });
        })
        .nullable(),
    );
}

export { NOTIFICATION_URL_FIELDS, NOTIFICATION_URL_LABELS, type NotificationUrlField } from "./notification-url-fields";

export function notificationUrlsSchema(options: { allowHttp: boolean }) {
  const url = notificationUrlSchema(options);
  return z.object({ defaultNotificationUrl: url, completionNotificationUrl: url, lifecycleNotificationUrl: url });
}
