// Captures an authorized payment, in part or in full, once or several times (once at an acquirer
// that completes an authorization once: lib/acquirers/capabilities.ts), never beyond the
// authorized amount. An omitted amount captures everything still uncaptured.
import type { Mode } from "../mode";
import type { OperationRequest } from "../validation/operation";
import { requestFollowUp, type RequestFollowUpOptions } from "./request-follow-up";

export async function capturePayment(options: {
  merchantId: string;
  mode: Mode;
  paymentRef: string | undefined;
  responseId: string;
  input: OperationRequest;
  bindAnswer?: RequestFollowUpOptions["bindAnswer"];
}) {
  return requestFollowUp({ ...options, type: "capture" });
}
