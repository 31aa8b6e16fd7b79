// The addresses of the 3DS Method's two pages for one payment: ids and the origin binding only (no
// card data ever goes into an address).
import { config } from "../env";

/** Path (relative to our origin) of the hidden method page; the controller adds the origin binding. */
export function methodPagePath(sessionId: string, paymentId: string): string {
  return `/dynamic/${sessionId}/payments/${paymentId}/method`;
}

/** Where the ACS posts the method's notification (threeDSMethodNotificationURL). */
export function methodNotificationUrl(sessionId: string, paymentId: string, binding: string | undefined): string {
  const query = binding ? `?b=${encodeURIComponent(binding)}` : "";
  return `${config().apiBaseUrls.cit}/dynamic/${sessionId}/payments/${paymentId}/method-notify${query}`;
}
