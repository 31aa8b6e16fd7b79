// The merchant API's follow-up routes (capture, refund, void: spec 4.4-4.6) are one route per kind
// of the follow-up table (lib/payments/follow-ups/kinds.ts): the same key scope, body and use case,
// told apart only by the kind. A route file keeps its own `dynamic` and method exports, which Next
// reads from the file itself.
import { merchantRoute } from "@/lib/api/merchant-route";
import { requestFollowUp } from "@/lib/payments/request-follow-up";
import type { FollowUpType } from "@/lib/payments/follow-ups/kinds";
import { operationRequestSchema } from "@/lib/validation/operation";

export function followUpRoute(type: FollowUpType) {
  return merchantRoute({
    scope: "follow-ups",
    schema: operationRequestSchema,
    handler: async ({ merchantId, mode, paymentRef, responseId, input, bindAnswer }) => ({
      body: await requestFollowUp({ merchantId, mode, paymentRef, responseId, input, bindAnswer, type }),
    }),
  });
}
