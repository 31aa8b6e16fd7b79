// Voids (cancels) an authorization that has no capture, approved or pending. A void releases the
// whole authorization: an amount, when sent, must be the authorized amount.
import { requestFollowUp, type FollowUpRequest } from "./request-follow-up";

export async function voidPayment(options: FollowUpRequest) {
  return requestFollowUp({ ...options, type: "void" });
}
