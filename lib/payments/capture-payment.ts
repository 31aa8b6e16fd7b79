// Captures an authorized payment, in part or in full, once or several times (once at an acquirer
// that completes an authorization once: lib/acquirers/capabilities.ts), never beyond the
// authorized amount. An omitted amount captures everything still uncaptured.
import { requestFollowUp, type FollowUpRequest } from "./request-follow-up";

export async function capturePayment(options: FollowUpRequest) {
  return requestFollowUp({ ...options, type: "capture" });
}
