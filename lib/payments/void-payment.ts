// Voids (cancels) an authorization that has no capture, approved or pending. A void releases the
// whole authorization: an amount, when sent, must be the authorized amount.
import type { Mode } from "../mode";
import type { OperationRequest } from "../validation/operation";
import { requestFollowUp, type RequestFollowUpOptions } from "./request-follow-up";

export async function voidPayment(options: {
  merchantId: string;
  mode: Mode;
  paymentRef: string | undefined;
  responseId: string;
  input: OperationRequest;
  bindAnswer?: RequestFollowUpOptions["bindAnswer"];
}) {
  return requestFollowUp({ ...options, type: "void" });
}
